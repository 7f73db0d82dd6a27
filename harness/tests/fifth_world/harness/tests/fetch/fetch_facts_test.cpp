// The fetch scenarios' figures, by hand: the starter's one shard at a time, the busiest link's
// shards for the bound.
#include <boost/test/unit_test.hpp>

#include "../../worlds/fetch/world.hpp"

namespace fetch = overlap::fetch;

BOOST_AUTO_TEST_SUITE(fetch_facts)

BOOST_AUTO_TEST_CASE(default_scenario) {
  const auto facts = fetch::World::facts(fetch::World::table().scenarios().front());
  BOOST_TEST(facts.baseline_ms == 12 * 20);
  BOOST_TEST(facts.bound.ms == 4 * 20);
  BOOST_TEST(facts.best_known_ms == facts.bound.ms);
}

BOOST_AUTO_TEST_CASE(uneven_links) {
  fetch::Scenario s;
  s.shards = 7;
  s.links = 3;
  s.fetch_ms = 10;
  BOOST_TEST(fetch::World::facts(s).bound.ms == 30);  // link 0 carries shards 0, 3 and 6
}

BOOST_AUTO_TEST_SUITE_END()
