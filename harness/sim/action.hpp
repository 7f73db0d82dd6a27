// A move-only `void()` callable: events own completion handlers, which cannot be copied.
#pragma once

#include <memory>
#include <utility>

namespace overlap::sim {

class Action {
 public:
  Action() = default;
  template <typename F>
  Action(F f) : impl_(std::make_unique<Model<F>>(std::move(f))) {}

  void operator()() { impl_->call(); }
  explicit operator bool() const { return impl_ != nullptr; }

 private:
  struct Concept {
    virtual ~Concept() = default;
    virtual void call() = 0;
  };
  template <typename F>
  struct Model final : Concept {
    explicit Model(F f) : fn(std::move(f)) {}
    void call() override { fn(); }
    F fn;
  };
  std::unique_ptr<Concept> impl_;
};

}  // namespace overlap::sim
