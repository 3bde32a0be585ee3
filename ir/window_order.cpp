#include "ir/window_order.h"

namespace rfguard {

bool dependsOnPeerOrder(const WindowCall& wc) {
  if (wc.func == "row_number") return true;
  if (wc.func == "rank" || wc.func == "dense_rank" || !wc.frame || !wc.frame->rows) return false;
  using K = FrameBound::Kind;
  return wc.frame->start.kind != K::UnboundedPreceding ||
         wc.frame->end.kind != K::UnboundedFollowing;
}

}  // namespace rfguard
