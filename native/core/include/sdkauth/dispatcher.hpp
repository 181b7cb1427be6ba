// Where completion callbacks run. The core never calls a user callback from its own threads:
// it posts the call to a Dispatcher, so hosts decide which thread runs it.
#pragma once
#include <cstddef>
#include <deque>
#include <functional>
#include <mutex>

namespace sdkauth {

class Dispatcher {
 public:
  virtual ~Dispatcher() = default;
  // Called from any thread; must not run `task` inline.
  virtual void Post(std::function<void()> task) = 0;
};

// For plain C++ hosts: tasks wait in a queue until the host calls RunCallbacks(), typically
// once per frame, on the thread that should run them.
class QueueDispatcher final : public Dispatcher {
 public:
  void Post(std::function<void()> task) override;
  // Runs every task queued before the call; returns how many ran. Tasks posted while it runs
  // wait for the next call, so a callback that re-posts cannot starve the caller.
  std::size_t RunCallbacks();
  std::size_t Pending() const;

 private:
  mutable std::mutex mutex_;
  std::deque<std::function<void()>> queue_;
};

}  // namespace sdkauth
