#pragma once
// A set of string views (column ids, mostly) in one open-addressed table.
#include <cstddef>
#include <functional>
#include <string_view>
#include <vector>

#include "ir/column_id.h"

namespace rfguard {

/// Views of strings that outlive the set, hashed as std::hash<std::string_view>
/// (a ColumnId's stored hash is that hash, so ids are not hashed again). One
/// table over a power of two, at most half full: no allocation per element, as
/// std::unordered_set makes.
class ViewSet {
 public:
  ViewSet() = default;
  /// Room for `n` elements before the first growth.
  explicit ViewSet(size_t n) {
    size_t slots = kFirstSlots;
    while (slots < 2 * n) slots *= 2;
    slots_.assign(slots, Slot{});
  }
  /// Adds `s`; false when it was there.
  bool insert(std::string_view s) { return insert(s, std::hash<std::string_view>{}(s)); }
  bool insert(const std::string& s) { return insert(std::string_view(s)); }
  bool insert(const char* s) { return insert(std::string_view(s)); }
  bool insert(const ColumnId& id) { return insert(id.view(), id.hash()); }
  bool insert(std::string_view s, size_t hash) {
    if (2 * (size_ + 1) > slots_.size()) grow();
    Slot& slot = slots_[slotOf(s, hash)];
    if (slot.used) return false;
    slot = {s, hash, true};
    ++size_;
    return true;
  }
  bool contains(std::string_view s) const { return contains(s, std::hash<std::string_view>{}(s)); }
  bool contains(const std::string& s) const { return contains(std::string_view(s)); }
  bool contains(const char* s) const { return contains(std::string_view(s)); }
  bool contains(const ColumnId& id) const { return contains(id.view(), id.hash()); }
  bool contains(std::string_view s, size_t hash) const {
    return !slots_.empty() && slots_[slotOf(s, hash)].used;
  }
  size_t size() const { return size_; }

 private:
  static constexpr size_t kFirstSlots = 64;  ///< the table's size at its first insert
  struct Slot {
    std::string_view text;
    size_t hash = 0;
    bool used = false;
  };
  /// The slot holding `s`, or the free slot where it would go.
  size_t slotOf(std::string_view s, size_t hash) const {
    const size_t mask = slots_.size() - 1;
    size_t at = hash & mask;
    while (slots_[at].used && (slots_[at].hash != hash || slots_[at].text != s))
      at = (at + 1) & mask;
    return at;
  }
  void grow() {
    std::vector<Slot> old = std::move(slots_);
    slots_.assign(old.empty() ? kFirstSlots : 2 * old.size(), Slot{});
    for (const Slot& s : old)
      if (s.used) slots_[slotOf(s.text, s.hash)] = s;
  }
  std::vector<Slot> slots_;
  size_t size_ = 0;
};

}  // namespace rfguard
