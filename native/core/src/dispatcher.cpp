#include "sdkauth/dispatcher.hpp"

namespace sdkauth {

void QueueDispatcher::Post(std::function<void()> task) {
  std::lock_guard<std::mutex> lock(mutex_);
  queue_.push_back(std::move(task));
}

std::size_t QueueDispatcher::RunCallbacks() {
  std::deque<std::function<void()>> ready;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    ready.swap(queue_);
  }
  for (auto& task : ready) task();
  return ready.size();
}

std::size_t QueueDispatcher::Pending() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return queue_.size();
}

}  // namespace sdkauth
