#include <overlap/error.hpp>
#include <string>

namespace overlap {

namespace {

class Category final : public boost::system::error_category {
 public:
  const char* name() const noexcept override { return "overlap"; }
  std::string message(int value) const override {
    switch (static_cast<errc>(value)) {
      case errc::misuse:
        return "the call broke the operation's requirements (see the report's violations)";
    }
    return "unknown overlap error";
  }
};

}  // namespace

const boost::system::error_category& category() {
  static const Category instance;
  return instance;
}

}  // namespace overlap
