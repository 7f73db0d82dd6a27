// Adversarial: a million operations issued on one stage in one instant, none waited for:
// forward and backward of one micro-batch in turn on stage 1 (whose input and output are both
// 8 wide, so one tensor serves as either). Each is a contention; the judge's work on them is
// bounded by the real-time limit, whatever their number.
#include <boost/system/error_code.hpp>
#include <overlap/pipeline.hpp>

namespace pp = overlap::pipeline;

void train(pp::Pipeline& pipe) {
  const pp::Tensor h = pipe.stage(0).forward(0, pipe.input(0, 0));
  pp::Stage& stage = pipe.stage(1);
  for (int i = 0; i < 499'000; ++i) {
    stage.async_forward(0, h, [](boost::system::error_code, pp::Tensor) {});
    stage.async_backward(0, h, [](boost::system::error_code, pp::Tensor) {});
  }
}

OVERLAP_TRAIN(train)
