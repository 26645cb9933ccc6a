// Checks a timeline trace (CUSIM_TRACE) against the Chrome trace event
// format that Perfetto and chrome://tracing read, then against what the
// test expects of its content.
//
// The format's rules checked for every event: "traceEvents" is an array of
// objects; each has a string "name" and "ph", and integer "pid" and "tid";
// complete events ("X") have "ts" and "dur" >= 0 (microseconds), flow
// events ("s", "f") an "id" and "ts", metadata events ("M") the "args" their
// name needs. Spans of one track (pid, tid) nest: one that starts within
// another ends within it. Every flow has one start and one end, the end no
// earlier than the start.
//
//   trace_check FILE [--spans CATEGORY=N]... [--at-least CATEGORY=N]...
//                    [--flows N] [--span NAME]... [--track NAME]...
#include <algorithm>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <sstream>
#include <tuple>

#include "json.hpp"

using trace_check::json;

namespace {

struct span {
  long long start, end;
  std::string name;
};

int failures = 0;
template <class... Args>
void problem(Args&&... parts) {
  ++failures;
  std::cerr << "trace_check: ";
  (std::cerr << ... << parts) << '\n';
}

const json& member(const json& event, const std::string& key, json::type kind, std::size_t index) {
  static const json missing;
  const json* value = event.find(key);
  if (value == nullptr || value->kind != kind) {
    problem("event ", index, " lacks \"", key, "\" of the right type");
    return missing;
  }
  return *value;
}

bool is_integer(const json& value) {
  return value.kind == json::type::number && value.text.find_first_of(".eE") == std::string::npos;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::cerr << "usage: trace_check FILE [--spans CATEGORY=N]... [--at-least CATEGORY=N]... [--flows N] "
                 "[--span NAME]... [--track NAME]...\n";
    return 2;
  }
  std::ifstream file(argv[1]);
  if (!file) {
    std::cerr << "trace_check: cannot read " << argv[1] << '\n';
    return 1;
  }
  std::stringstream text;
  text << file.rdbuf();
  json document;
  try {
    document = trace_check::parse_json(text.str());
  } catch (const std::exception& e) {
    std::cerr << "trace_check: " << argv[1] << ": " << e.what() << '\n';
    return 1;
  }
  const json* events = document.find("traceEvents");
  if (document.kind != json::type::object || events == nullptr || events->kind != json::type::array) {
    std::cerr << "trace_check: no \"traceEvents\" array at the top\n";
    return 1;
  }

  std::map<std::pair<std::string, std::string>, std::vector<span>> tracks;  // (pid, tid)
  std::map<std::string, long long> spans_by_category;
  std::set<std::string> span_names, track_names;
  std::map<std::string, std::vector<std::pair<char, long long>>> flows;  // id -> (s|f, ts)
  for (std::size_t i = 0; i < events->items.size(); ++i) {
    const json& e = events->items[i];
    if (e.kind != json::type::object) {
      problem("event ", i, " is not an object");
      continue;
    }
    const std::string& name = member(e, "name", json::type::string, i).text;
    const std::string& ph = member(e, "ph", json::type::string, i).text;
    const json* pid = e.find("pid");
    const json* tid = e.find("tid");
    if (pid == nullptr || tid == nullptr || !is_integer(*pid) || !is_integer(*tid)) {
      problem("event ", i, " (", name, ") lacks an integer pid and tid");
      continue;
    }
    try {
      if (ph == "X") {
        const long long ts = trace_check::micros_to_nanos(member(e, "ts", json::type::number, i).text);
        const long long dur = trace_check::micros_to_nanos(member(e, "dur", json::type::number, i).text);
        tracks[{pid->text, tid->text}].push_back(span{ts, ts + dur, name});
        const json* category = e.find("cat");
        ++spans_by_category[category != nullptr ? category->text : ""];
        span_names.insert(name);
      } else if (ph == "s" || ph == "f") {
        const json* id = e.find("id");
        if (id == nullptr || (id->kind != json::type::number && id->kind != json::type::string)) {
          problem("flow event ", i, " has no id");
          continue;
        }
        const long long ts = trace_check::micros_to_nanos(member(e, "ts", json::type::number, i).text);
        flows[id->text].emplace_back(ph[0], ts);
      } else if (ph == "M") {
        const json& args = member(e, "args", json::type::object, i);
        if (name == "process_name" || name == "thread_name") {
          const json* value = args.find("name");
          if (value == nullptr || value->kind != json::type::string) problem("metadata event ", i, " names nothing");
          else if (name == "thread_name") track_names.insert(value->text);
        } else if (name == "process_sort_index" || name == "thread_sort_index") {
          const json* value = args.find("sort_index");
          if (value == nullptr || !is_integer(*value)) problem("metadata event ", i, " has no integer sort_index");
        } else {
          problem("metadata event ", i, " is of an unknown kind: ", name);
        }
      } else {
        problem("event ", i, " has a phase this trace never writes: ", ph);
      }
    } catch (const std::exception& ex) {
      problem("event ", i, ": ", ex.what());
    }
  }

  // Nesting: sorted by start (the longer first), each span ends within every span still open around it.
  for (auto& [track, spans] : tracks) {
    std::sort(spans.begin(), spans.end(),
              [](const span& a, const span& b) { return std::tie(a.start, b.end) < std::tie(b.start, a.end); });
    std::vector<const span*> open;
    for (const span& s : spans) {
      while (!open.empty() && open.back()->end <= s.start) open.pop_back();
      if (!open.empty() && s.end > open.back()->end) {
        problem("on track pid ", track.first, " tid ", track.second, ", \"", s.name, "\" [", s.start, ", ", s.end,
                "] ns overlaps the end of \"", open.back()->name, "\" [", open.back()->start, ", ", open.back()->end,
                "] without nesting in it");
      }
      open.push_back(&s);
    }
  }
  for (const auto& [id, ends] : flows) {
    if (ends.size() != 2 || ends[0].first != 's' || ends[1].first != 'f') {
      problem("flow ", id, " is not one start followed by one end");
    } else if (ends[1].second < ends[0].second) {
      problem("flow ", id, " ends before it starts");
    }
  }

  // What the test expects.
  for (int i = 2; i + 1 < argc; i += 2) {
    const std::string option = argv[i], value = argv[i + 1];
    const std::size_t equals = value.rfind('=');
    if (option == "--spans" || option == "--at-least") {
      const std::string category = value.substr(0, equals);
      const long long wanted = std::stoll(value.substr(equals + 1));
      const long long found = spans_by_category[category];
      if (option == "--spans" ? found != wanted : found < wanted) {
        problem(found, " spans of category \"", category, "\", expected ", option == "--spans" ? "" : "at least ",
                wanted);
      }
    } else if (option == "--flows") {
      if (flows.size() != std::stoull(value)) problem(flows.size(), " flows, expected ", value);
    } else if (option == "--span") {
      if (span_names.count(value) == 0) problem("no span named \"", value, "\"");
    } else if (option == "--track") {
      if (track_names.count(value) == 0) problem("no track named \"", value, "\"");
    } else {
      std::cerr << "trace_check: unknown option " << option << '\n';
      return 2;
    }
  }
  if (failures != 0) return 1;
  std::size_t span_count = 0;
  for (const auto& [track, spans] : tracks) span_count += spans.size();
  std::printf("trace_check: %s is a valid trace: %zu events, %zu spans on %zu tracks, %zu flows\n", argv[1],
              events->items.size(), span_count, tracks.size(), flows.size());
  return 0;
}
