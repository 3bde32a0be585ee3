#include "execution/filters.h"

#include <algorithm>
#include <cassert>

namespace rfguard::rt {

const char* kindName(Kind k) {
  switch (k) {
    case Kind::Top:
      return "top";
    case Kind::In:
      return "in";
    case Kind::Bloom:
      return "bloom";
    case Kind::MinMax:
      return "min_max";
  }
  return "?";
}

Kind runtimeKind(FilterKind planned) {
  switch (planned) {
    case FilterKind::Bloom:
      return Kind::Bloom;
    case FilterKind::In:
    case FilterKind::Bitset:
      return Kind::In;
    case FilterKind::MinMax:
      return Kind::MinMax;
  }
  return Kind::Top;
}

const char* buildStateName(BuildState s) {
  switch (s) {
    case BuildState::Collecting:
      return "COLLECTING";
    case BuildState::Ready:
      return "READY";
    case BuildState::TimedOut:
      return "TOP";
    case BuildState::Failed:
      return "FAILED";
  }
  return "?";
}

Filter Filter::top() {
  return Filter{};
}

bool Filter::accept(KeyView key) const {
  if (kind_ == Kind::Top) return true;
  // Under `=` a NULL in any column never matches, whatever the filter holds.
  if (!nullSafe_ && hasNull(key)) return false;
  switch (kind_) {
    case Kind::In:
      if (intIn_) return key.size() == 1 && accept(key[0]);
      return std::binary_search(in_.begin(), in_.end(), encode(key));
    case Kind::Bloom:
      if (!mappable(config_, key)) return nullKey_ && hasNull(key);  // demo-linear NULL key
      return bloomMayContain(bits_, config_, key);
    case Kind::MinMax:
      if (min_.size() != key.size()) return !min_.empty();  // empty build: nothing matches
      for (size_t i = 0; i < key.size(); ++i) {
        if (std::holds_alternative<std::monostate>(key[i])) {
          if (!columnNull_[i]) return false;
          continue;
        }
        if (std::holds_alternative<std::monostate>(min_[i])) return false;  // no value seen
        if (key[i].index() != min_[i].index()) return true;  // other type: cannot judge
        if (compareDatum(key[i], min_[i]) < 0 || compareDatum(key[i], max_[i]) > 0) return false;
      }
      return true;
    case Kind::Top:
      break;
  }
  return true;
}

bool Filter::accept(const Datum& one) const {
  switch (kind_) {
    case Kind::Top:
      return true;
    case Kind::In: {
      if (!nullSafe_ && std::holds_alternative<std::monostate>(one)) return false;
      if (intIn_) {
        if (std::holds_alternative<std::monostate>(one)) return nullKey_;
        auto i = std::get_if<int64_t>(&one);  // a double or a string is no integer key
        return i && std::binary_search(ints_.begin(), ints_.end(), *i);
      }
      std::string bytes;  // an integer's 9 bytes fit the string's own buffer
      appendEncoded(one, bytes);
      return std::binary_search(in_.begin(), in_.end(), bytes);
    }
    default:
      return accept(KeyView(&one, 1));
  }
}

uint64_t Filter::bytes() const {
  uint64_t n = 0;
  for (const auto& k : in_) n += k.size();
  n += ints_.size() * sizeof(int64_t);
  return n + bits_.bytes() + (min_.size() + max_.size()) * sizeof(Datum);
}

std::string Filter::describe() const {
  switch (kind_) {
    case Kind::Top:
      return "top";
    case Kind::In:
      return "in(" + std::to_string(intIn_ ? ints_.size() + nullKey_ : in_.size()) + " keys)";
    case Kind::Bloom:
      return std::string("bloom(") + mappingName(config_.mapping) +
             ", m=" + std::to_string(config_.m) + ")";
    case Kind::MinMax:
      return "min_max";
  }
  return "?";
}

FilterBuilder::FilterBuilder(Kind preferred, bool nullSafe, FilterLimits limits)
    : preferred_(preferred), nullSafe_(nullSafe), limits_(limits) {}

void FilterBuilder::add(KeyView key) {
  if (state_ != BuildState::Collecting) return;
  if (!nullSafe_ && hasNull(key)) return;  // can never match under `=`
  assert(count_ == 0 || key.size() == width_);
  width_ = key.size();
  columns_.insert(columns_.end(), key.begin(), key.end());
  ++count_;
}

void FilterBuilder::add(const Datum& one) {
  add(KeyView(&one, 1));
}

void FilterBuilder::clear() {
  columns_.clear();
  count_ = 0;
}

const Filter& FilterBuilder::finish() {
  if (state_ == BuildState::Collecting) filter_ = build();
  return filter_;
}

Filter FilterBuilder::release() {
  if (state_ == BuildState::Collecting) return build();  // filter_ is still TOP
  Filter f = std::move(filter_);
  filter_ = Filter::top();
  return f;
}

Filter FilterBuilder::build() {
  assert(state_ == BuildState::Collecting);
  state_ = BuildState::Ready;
  Filter f;
  f.nullSafe_ = nullSafe_;
  Kind kind = preferred_;
  why_ = kindName(kind);
  // IN's content and Bloom's size (MinMax needs neither): the distinct integers
  // when every key is one integer column or NULL, else the distinct encodings.
  bool ints = width_ == 1 && count_ > 0;
  for (size_t i = 0; ints && i < count_; ++i)
    ints = std::holds_alternative<int64_t>(columns_[i]) ||
           std::holds_alternative<std::monostate>(columns_[i]);
  std::vector<int64_t> distinctInts;
  bool nullKey = false;
  std::vector<std::string> distinct;
  size_t distinctKeys = 0;
  if (kind != Kind::MinMax && ints) {
    distinctInts.reserve(count_);
    for (size_t i = 0; i < count_; ++i)
      if (auto v = std::get_if<int64_t>(&columns_[i]))
        distinctInts.push_back(*v);
      else
        nullKey = true;
    std::sort(distinctInts.begin(), distinctInts.end());
    distinctInts.erase(std::unique(distinctInts.begin(), distinctInts.end()), distinctInts.end());
    distinctKeys = distinctInts.size() + nullKey;
  } else if (kind != Kind::MinMax) {
    distinct.reserve(count_);
    for (size_t i = 0; i < count_; ++i) distinct.push_back(encode(key(i)));
    std::sort(distinct.begin(), distinct.end());
    distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
    distinctKeys = distinct.size();
  }
  if (kind == Kind::In && distinctKeys > limits_.maxInKeys) {
    why_ += " -> bloom (" + std::to_string(distinctKeys) + " keys > " +
            std::to_string(limits_.maxInKeys) + ")";
    kind = Kind::Bloom;
  }
  if (kind == Kind::Bloom) {
    HashConfig c = limits_.bloom ? *limits_.bloom : splitBlockFor(distinctKeys, limits_.fpp);
    if (c.m / 8 > limits_.maxBloomBytes) {
      why_ += " -> min_max (" + std::to_string(c.m / 8) + " bytes > " +
              std::to_string(limits_.maxBloomBytes) + ")";
      kind = Kind::MinMax;
    } else {
      f.config_ = c;
      f.bits_ = Bitmap(c.m);
      for (size_t i = 0; i < count_; ++i) {
        KeyView k = key(i);
        if (mappable(c, k))
          bloomInsert(f.bits_, c, k);
        else if (hasNull(k) && k.size() == 1)
          f.nullKey_ = true;
        else
          kind = Kind::Top;  // a key the fixed mapping cannot hash: fail open
      }
      if (kind == Kind::Top) why_ += " -> top (a key the mapping cannot hash)";
    }
  }
  if (kind == Kind::MinMax) {
    const size_t cols = count_ ? width_ : 0;
    f.min_.assign(cols, std::monostate{});
    f.max_.assign(cols, std::monostate{});
    f.columnNull_.assign(cols, false);
    for (size_t j = 0; j < count_; ++j)
      for (size_t i = 0; i < cols; ++i) {
        const Datum& d = key(j)[i];
        if (std::holds_alternative<std::monostate>(d)) {
          f.columnNull_[i] = true;
          continue;
        }
        if (std::holds_alternative<double>(d)) {
          kind = Kind::Top;  // NaN and -0.0: no range on floating point
          continue;
        }
        if (std::holds_alternative<std::monostate>(f.min_[i])) {
          f.min_[i] = f.max_[i] = d;
        } else if (d.index() != f.min_[i].index()) {
          kind = Kind::Top;
        } else {
          if (compareDatum(d, f.min_[i]) < 0) f.min_[i] = d;
          if (compareDatum(d, f.max_[i]) > 0) f.max_[i] = d;
        }
      }
    if (kind == Kind::Top) why_ += " -> top (no order on these keys)";
  }
  if (kind == Kind::In && ints) {
    f.ints_ = std::move(distinctInts);
    f.intIn_ = true;
    f.nullKey_ = nullKey;
  } else if (kind == Kind::In) {
    f.in_ = std::move(distinct);
  }
  f.kind_ = kind;
  clear();
  return f;
}

const Filter& FilterBuilder::timeout() {
  if (state_ == BuildState::Collecting) {
    state_ = BuildState::TimedOut;
    filter_ = Filter::top();
    clear();
  }
  return filter_;
}

const Filter& FilterBuilder::fail() {
  if (state_ == BuildState::Collecting || state_ == BuildState::TimedOut) {
    state_ = BuildState::Failed;
    filter_ = Filter::top();
    clear();
  }
  return filter_;
}

}  // namespace rfguard::rt
