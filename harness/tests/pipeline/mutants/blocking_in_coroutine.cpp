// Mutant: a coroutine calling the blocking forms (an exception that says which form to use).
#include <boost/asio.hpp>
#include <overlap/pipeline.hpp>

namespace pp = overlap::pipeline;

boost::asio::awaitable<void> train(pp::Pipeline& pipe) {
  for (int step = 0; step < pipe.steps(); ++step) {
    for (int mb = 0; mb < pipe.micro_batches(); ++mb) {
      pp::Tensor x = pipe.input(step, mb);
      for (int s = 0; s < pipe.num_stages(); ++s) x = pipe.stage(s).forward(mb, x);
    }
  }
  co_return;
}

OVERLAP_TRAIN(train)
