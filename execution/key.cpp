#include "execution/key.h"

#include <cstring>

namespace rfguard::rt {

bool hasNull(KeyView k) {
  for (const auto& d : k)
    if (std::holds_alternative<std::monostate>(d)) return true;
  return false;
}

void appendEncoded(const Datum& d, std::string& out) {
  out += static_cast<char>(d.index());
  if (auto i = std::get_if<int64_t>(&d)) {
    out.append(reinterpret_cast<const char*>(i), sizeof *i);
  } else if (auto x = std::get_if<double>(&d)) {
    double v = *x == 0.0 ? 0.0 : *x;  // -0.0 and 0.0 compare equal
    out.append(reinterpret_cast<const char*>(&v), sizeof v);
  } else if (auto s = std::get_if<std::string>(&d)) {
    uint64_t n = s->size();
    out.append(reinterpret_cast<const char*>(&n), sizeof n);
    out += *s;
  }
}

std::string encode(KeyView k) {
  std::string out;
  for (const auto& d : k) appendEncoded(d, out);
  return out;
}

int compareDatum(const Datum& a, const Datum& b) {
  if (auto i = std::get_if<int64_t>(&a)) {
    int64_t j = std::get<int64_t>(b);
    return *i < j ? -1 : *i > j;
  }
  if (auto x = std::get_if<double>(&a)) {
    double y = std::get<double>(b);
    return *x < y ? -1 : *x > y;
  }
  return std::get<std::string>(a).compare(std::get<std::string>(b)) < 0
             ? -1
             : std::get<std::string>(a) != std::get<std::string>(b);
}

std::string keyToString(const Key& k) {
  std::string out;
  for (size_t i = 0; i < k.size(); ++i) {
    if (i) out += ", ";
    const Datum& d = k[i];
    if (std::holds_alternative<std::monostate>(d))
      out += "NULL";
    else if (auto v = std::get_if<int64_t>(&d))
      out += std::to_string(*v);
    else if (auto x = std::get_if<double>(&d))
      out += std::to_string(*x);
    else
      out += "'" + std::get<std::string>(d) + "'";
  }
  return k.size() == 1 ? out : "(" + out + ")";
}

}  // namespace rfguard::rt
