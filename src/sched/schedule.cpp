#include "sched/schedule.hpp"

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <mutex>
#include <numeric>

#include <cusim/runtime.hpp>

#include "support/diagnostics.hpp"
#include "support/env.hpp"

namespace cusim::detail {

namespace {

schedule_policy from_environment() {
  schedule_policy policy;
  if (const auto text = env_string("CUSIM_SCHEDULE"); text && !parse_schedule(*text, policy)) {
    report("CUSIM_SCHEDULE='{}' is not a schedule: in-order, reverse, random:SEED or pct:SEED[,DEPTH]; using "
           "in-order",
           *text);
  }
  return policy;
}

schedule_policy& the_schedule() {
  static schedule_policy policy = from_environment();
  return policy;
}

bool read_number(const std::string& text, std::uint64_t& value) {
  if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos) return false;
  value = std::strtoull(text.c_str(), nullptr, 10);
  return true;
}

// The program's command line, quoted for a shell.
std::string command_line() {
  std::ifstream in("/proc/self/cmdline", std::ios::binary);
  std::string line, argument;
  while (std::getline(in, argument, '\0')) {
    const bool plain = argument.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
                                                  "-_./=:,+") == std::string::npos;
    line += (line.empty() ? "" : " ") + (plain && !argument.empty() ? argument : "'" + argument + "'");
  }
  return line.empty() ? "<program>" : line;
}

}  // namespace

std::string schedule_policy::text() const {
  switch (kind) {
    case schedule_kind::in_order: return "in-order";
    case schedule_kind::reverse: return "reverse";
    case schedule_kind::random: return "random:" + std::to_string(seed);
    case schedule_kind::pct: return "pct:" + std::to_string(seed) + "," + std::to_string(depth);
  }
  return "in-order";
}

bool parse_schedule(const std::string& text, schedule_policy& policy) {
  schedule_policy parsed;
  const std::size_t colon = text.find(':');
  const std::string name = text.substr(0, colon);
  const std::string rest = colon == std::string::npos ? "" : text.substr(colon + 1);
  if (name == "in-order" || name == "reverse") {
    if (colon != std::string::npos) return false;
    parsed.kind = name == "reverse" ? schedule_kind::reverse : schedule_kind::in_order;
  } else if (name == "random") {
    parsed.kind = schedule_kind::random;
    if (!read_number(rest, parsed.seed)) return false;
  } else if (name == "pct") {
    parsed.kind = schedule_kind::pct;
    const std::size_t comma = rest.find(',');
    if (!read_number(rest.substr(0, comma), parsed.seed)) return false;
    if (comma != std::string::npos) {
      std::uint64_t depth = 0;
      if (!read_number(rest.substr(comma + 1), depth) || depth < 1 || depth > 1000) return false;
      parsed.depth = unsigned(depth);
    }
  } else {
    return false;
  }
  policy = parsed;
  return true;
}

const schedule_policy& active_schedule() { return the_schedule(); }
bool schedule_is_default() { return the_schedule().kind == schedule_kind::in_order; }

std::uint64_t schedule_random::next() {
  std::uint64_t z = (state_ += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

start_order::start_order(std::uint64_t count, std::uint64_t key) : count_(count == 0 ? 1 : count) {
  const schedule_policy& policy = active_schedule();
  if (policy.kind == schedule_kind::reverse) {
    multiplier_ = offset_ = count_ - 1;  // -i - 1 mod n
  } else if (policy.kind == schedule_kind::random || policy.kind == schedule_kind::pct) {
    schedule_random random(policy.seed ^ (key * 0x2545f4914f6cdd1dull));
    offset_ = random.below(count_);
    multiplier_ = count_ == 1 ? 1 : 1 + random.below(count_ - 1);
    while (std::gcd(multiplier_, count_) != 1) multiplier_ = multiplier_ % (count_ - 1) + 1;
  }
}

void note_schedule_for_replay() {
  static std::once_flag told;
  std::call_once(told, [] {
    report("this run's schedule: {} with {} worker{}. To replay it: CUSIM_SCHEDULE={} CUSIM_WORKERS=1 {}",
           active_schedule().text(), cusim::worker_count(), cusim::worker_count() == 1 ? "" : "s",
           active_schedule().text(), command_line());
  });
}

}  // namespace cusim::detail

bool cusim::set_schedule(const std::string& text) {
  return detail::parse_schedule(text, detail::the_schedule());
}
