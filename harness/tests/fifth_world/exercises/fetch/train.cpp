// Fetching a dataset's shards, synchronous: one shard at a time, each waited for. Nothing
// overlaps. Make it fast without breaking it: see README.md.
#include <overlap/fetch.hpp>

namespace fetch = overlap::fetch;

void train(fetch::Source& source) {
  for (int s = 0; s < source.num_shards(); ++s) source.fetch(s);
}

OVERLAP_TRAIN(train)
