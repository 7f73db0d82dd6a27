#include "wire.hpp"

#include <boost/json.hpp>
#include <charconv>
#include <stdexcept>

namespace overlap::grade {

namespace json = boost::json;

namespace {

constexpr std::int64_t kWireVersion = 1;

// Boost.JSON 1.81 may read a decimal double back one unit in the last place off, and a result
// must arrive exactly as it left: doubles travel as {"double": "<hexadecimal float>"}.
void doubles_to_hex(json::value& v) {
  if (v.is_double()) {
    char text[64];
    const auto end =
        std::to_chars(text, text + sizeof text, v.get_double(), std::chars_format::hex).ptr;
    v = json::object{{"double", json::string_view(text, static_cast<std::size_t>(end - text))}};
  } else if (v.is_array()) {
    for (json::value& e : v.get_array()) doubles_to_hex(e);
  } else if (v.is_object()) {
    for (auto& member : v.get_object()) doubles_to_hex(member.value());
  }
}

void hex_to_doubles(json::value& v) {
  if (v.is_array()) {
    for (json::value& e : v.get_array()) hex_to_doubles(e);
  } else if (v.is_object()) {
    json::object& o = v.get_object();
    if (o.size() == 1 && o.contains("double")) {
      const json::string& text = o.at("double").as_string();
      double d = 0;
      const auto [end, ec] =
          std::from_chars(text.data(), text.data() + text.size(), d, std::chars_format::hex);
      if (ec != std::errc{} || end != text.data() + text.size()) {
        throw std::runtime_error("a malformed double");
      }
      v = d;
      return;
    }
    for (auto& member : o) hex_to_doubles(member.value());
  }
}

}  // namespace

std::string to_wire(const ScenarioResult& result) {
  json::value body = json::value_from(result);
  doubles_to_hex(body);
  return json::serialize(json::object{{"wire", kWireVersion}, {"result", std::move(body)}});
}

ScenarioResult from_wire(std::string_view text) {
  json::value message = json::parse(text);
  if (message.at("wire").as_int64() != kWireVersion) {
    throw std::runtime_error("a result in another wire version");
  }
  hex_to_doubles(message.at("result"));
  return json::value_to<ScenarioResult>(message.at("result"));
}

}  // namespace overlap::grade
