#define BOOST_TEST_MODULE overlap unit tests
#include <boost/test/unit_test.hpp>
