// Objects the grader's cluster holds (a tensor, weights, a gradient, a snapshot) reach your code
// as handles: small values naming the object, with the facts you may read (a shape, a step, a
// version). Their contents stay with the cluster, as they would on a device you do not own.
// A default-constructed handle is empty, and so is a moved-from one where its type says so (each
// type says whether it copies or moves); passing an empty handle to a call is a misuse.
#pragma once

namespace overlap::detail {
// The submission's client library builds handles and reads their numbers; nothing else can.
struct HandleAccess;
}  // namespace overlap::detail
