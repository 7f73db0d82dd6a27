// Adversarial: the reference solution included whole. Rejected before it is built: a
// submission may include the kit's public headers, the C++ standard library and Boost only.
#include "../../../../solutions/pipeline/train.cpp"
