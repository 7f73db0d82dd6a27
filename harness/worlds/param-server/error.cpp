#include <overlap/param_server.hpp>
#include <string>

namespace overlap::param_server {

namespace {

class Category final : public boost::system::error_category {
 public:
  const char* name() const noexcept override { return "overlap.param_server"; }
  std::string message(int value) const override {
    return static_cast<errc>(value) == errc::worker_failed ? "the worker failed"
                                                           : "unknown param-server error";
  }
};

}  // namespace

const boost::system::error_category& category() {
  static const Category instance;
  return instance;
}

}  // namespace overlap::param_server
