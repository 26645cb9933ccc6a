#include "function_heads.hpp"

#include <set>
#include <string_view>

namespace cusim::cc {
namespace {

constexpr std::size_t npos = preprocessed::npos;

// What precedes a '{': a function's or lambda's declaration, with its
// execution-space markers (cuda_runtime.h turns __global__, __device__ and
// __host__ into them for cusim-cc), or anything else.
struct body_head {
  bool function = false, lambda = false;
  bool global = false, device = false, host = false, constexpr_ = false;
};

class head_reader {
 public:
  explicit head_reader(const preprocessed& p) : p_(p) {}

  std::string_view word(std::size_t t) const { return p_.spelling(t); }
  bool is_arrow_at(std::size_t t) const {  // tokens t-1, t spell "->", not in `operator->`
    return t > 0 && word(t) == ">" && word(t - 1) == "-" && p_.tokens()[t].begin == p_.tokens()[t - 1].end &&
           !(t >= 2 && word(t - 2) == "operator");
  }
  // `]` that closes `operator[]`, not a lambda's captures.
  bool closes_subscript_operator(std::size_t t) const {
    const std::size_t open = p_.match(t);
    return open != npos && open > 0 && word(open - 1) == "operator";
  }

  // Reads back from a '{' to learn what it opens.
  body_head head_of(std::size_t open) const {
    body_head head;
    if (open == 0) return head;
    std::size_t p = open - 1;
    // A trailing return type: `) -> T {`.
    for (std::size_t t = p, steps = 0; t > 0 && steps < 64; --t, ++steps) {
      const std::string_view w = word(t);
      if (w == ";" || w == "{" || w == "}") break;
      if ((w == ")" || w == "]") && p_.match(t) != npos && p_.match(t) < t) {
        if (p_.match(t) == 0) break;
        t = p_.match(t);
        continue;
      }
      if (t >= 2 && is_arrow_at(t)) {
        p = t - 2;
        break;
      }
    }
    // Trailing specifiers: const, noexcept(...), __attribute__((...)), ...
    static const std::set<std::string_view> specifiers{"const",   "volatile", "noexcept", "override", "final",
                                                       "mutable", "&",        "&&",       "constexpr"};
    while (p > 0) {
      if (specifiers.count(word(p))) {
        --p;
      } else if (word(p) == ")" && p_.match(p) != npos && p_.match(p) >= 2 &&
                 (word(p_.match(p) - 1) == "noexcept" || word(p_.match(p) - 1) == "throw" ||
                  word(p_.match(p) - 1) == "__attribute__")) {
        p = p_.match(p) - 2;
      } else {
        break;
      }
    }
    // A constructor's member initializers in braces: `) : a{x}, b{y} {`
    // (those in parentheses read as a call, which ends the same way).
    while (word(p) == "}" && p_.match(p) != npos && p_.match(p) >= 3 &&
           p_.tokens()[p_.match(p) - 1].kind == token_kind::identifier &&
           (word(p_.match(p) - 2) == "," || word(p_.match(p) - 2) == ":"))
      p = p_.match(p) - 3;
    std::size_t declaration_end = p;
    if (word(p) == "]" && !closes_subscript_operator(p)) {  // [captures] { ... }
      head.lambda = true;
    } else if (word(p) == ")" && p_.match(p) != npos && p_.match(p) > 0) {
      const std::size_t before = p_.match(p) - 1;
      const std::string_view w = word(before);
      if (w == "if" || w == "for" || w == "while" || w == "switch" || w == "catch" || w == "constexpr") return head;
      head.lambda = w == "]" && !closes_subscript_operator(before);
      declaration_end = before;
    } else {
      return head;  // a class, namespace, initializer or plain block
    }
    head.function = true;
    // The declaration back to the previous ';', '{' or '}' (for a lambda,
    // back to its '['), for the markers.
    for (std::size_t t = declaration_end + 1, steps = 0; t-- > 0 && steps < 1024; ++steps) {
      const std::string_view w = word(t);
      if ((w == ")" || w == "]") && p_.match(t) != npos && p_.match(t) < t) {
        if (head.lambda && w == "]") break;
        t = p_.match(t);
        continue;
      }
      if (w == ";" || w == "{" || w == "}") break;
      head.global |= w == "__cusim_global__";
      head.device |= w == "__cusim_device__";
      head.host |= w == "__cusim_host__";
      head.constexpr_ |= w == "constexpr" || w == "consteval";
    }
    return head;
  }

  // The function body that holds host tokens [first, last], and the pass it
  // is taken from; npos when they lie outside every function body.
  std::pair<std::size_t, body_pass> body_around(std::size_t first, std::size_t last) const {
    std::pair<std::size_t, body_pass> host_function{npos, body_pass::host};
    const std::size_t start = first < p_.tokens().size() ? p_.enclosing_brace(first) : npos;
    for (std::size_t b = start; b != npos; b = p_.enclosing_brace(b)) {
      if (p_.match(b) == npos || p_.match(b) < last) continue;
      const body_head head = head_of(b);
      if (!head.function) continue;
      if (head.global || head.device) return {b, head.host ? body_pass::both : body_pass::device};
      // An unmarked lambda runs where the function around it does; an
      // unmarked function is host code unless it is a member of a class
      // local to device code (so keep looking outwards).
      if (!head.lambda && host_function.first == npos)
        host_function = {b, head.constexpr_ && !head.host ? body_pass::both : body_pass::host};
    }
    return host_function;
  }

 private:
  const preprocessed& p_;
};

}  // namespace

std::pair<std::size_t, body_pass> enclosing_function_body(const preprocessed& p, std::size_t first, std::size_t last) {
  return head_reader(p).body_around(first, last);
}

}  // namespace cusim::cc
