#pragma once
// A set of string views (column ids, mostly) in one open-addressed table.
#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string_view>
#include <vector>

#include "ir/column_id.h"

namespace rfguard {

/// Views of strings that outlive the set, hashed as std::hash<std::string_view>
/// (a ColumnId's stored hash is that hash, so ids are not hashed again). One
/// table over a power of two, at most half full: no allocation per element, as
/// std::unordered_set makes, and none at all up to kInlineSlots / 2 elements
/// (the table starts inside the set: a query's column ids fit, and glibc's
/// malloc tidies all its small free blocks before it hands out a block of a
/// kilobyte or more).
class ViewSet {
 public:
  ViewSet() = default;
  /// Room for `n` elements before the first growth.
  explicit ViewSet(size_t n) {
    size_t slots = kInlineSlots;
    while (slots < 2 * n) slots *= 2;
    if (slots > kInlineSlots) moveTo(slots);
  }
  ViewSet(const ViewSet&) = delete;  // slots_ may point into the set itself
  ViewSet& operator=(const ViewSet&) = delete;

  /// Adds `s`; false when it was there.
  bool insert(std::string_view s) { return insert(s, std::hash<std::string_view>{}(s)); }
  bool insert(const std::string& s) { return insert(std::string_view(s)); }
  bool insert(const char* s) { return insert(std::string_view(s)); }
  bool insert(const ColumnId& id) { return insert(id.view(), id.hash()); }
  bool insert(std::string_view s, size_t hash) {
    if (2 * (size_ + 1) > capacity_) moveTo(2 * capacity_);
    const uint32_t h = static_cast<uint32_t>(hash);
    Slot& slot = slots_[slotOf(s, h)];
    if (slot.data) return false;
    // A default view has no data pointer; the empty text it stands for does.
    slot = {s.data() ? s.data() : "", static_cast<uint32_t>(s.size()), h};
    ++size_;
    return true;
  }
  bool contains(std::string_view s) const { return contains(s, std::hash<std::string_view>{}(s)); }
  bool contains(const std::string& s) const { return contains(std::string_view(s)); }
  bool contains(const char* s) const { return contains(std::string_view(s)); }
  bool contains(const ColumnId& id) const { return contains(id.view(), id.hash()); }
  bool contains(std::string_view s, size_t hash) const {
    return slots_[slotOf(s, static_cast<uint32_t>(hash))].data != nullptr;
  }
  size_t size() const { return size_; }

 private:
  static constexpr size_t kInlineSlots = 128;  ///< the table inside the set
  /// A view and the low half of its hash; a slot without data is free.
  struct Slot {
    const char* data = nullptr;
    uint32_t size = 0;
    uint32_t hash = 0;
  };
  /// The slot holding `s`, or the free slot where it would go.
  size_t slotOf(std::string_view s, uint32_t hash) const {
    const size_t mask = capacity_ - 1;
    size_t at = hash & mask;
    while (slots_[at].data &&
           (slots_[at].hash != hash || std::string_view(slots_[at].data, slots_[at].size) != s))
      at = (at + 1) & mask;
    return at;
  }
  /// Moves the elements into a table of `slots` slots on the heap.
  void moveTo(size_t slots) {
    std::vector<Slot> table(slots);
    const Slot* old = slots_;
    const size_t oldCapacity = capacity_;
    slots_ = table.data();
    capacity_ = slots;
    for (size_t i = 0; i < oldCapacity; ++i)
      if (old[i].data) slots_[slotOf({old[i].data, old[i].size}, old[i].hash)] = old[i];
    heap_ = std::move(table);  // frees the previous heap table, if any
  }
  std::array<Slot, kInlineSlots> inline_{};
  std::vector<Slot> heap_;
  Slot* slots_ = inline_.data();
  size_t capacity_ = kInlineSlots;
  size_t size_ = 0;
};

}  // namespace rfguard
