// Lambdas that name a function-scope __shared__ variable. cusim-cc declares
// such a variable as a reference to the running block's slot, an automatic
// variable, where nvcc's is not automatic and no lambda captures it: a lambda
// capturing by copy (`[=]`) would copy the whole array, and see none of the
// other threads' writes nor make its own visible, and one capturing nothing
// (`[]`) would not compile. The rewriter adds the shared names a lambda's body
// uses to its captures, by reference: `[=]` becomes `[=, &tile]`.
#pragma once
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cusim::cc {

// Whether a '[' opens a lambda, from the text before it: not a subscript
// (after a name, ')' or ']'), `delete[]`, `new T[n]`, `new T*[n]`,
// `operator[]`, a structured binding (`auto& [a, b]`) or an attribute's `[[`.
// Preprocessor lines (line markers) before it do not count.
bool opens_lambda(std::string_view before, std::string_view after);

struct lambda_reading {
  std::size_t body;        // index of the '{' of its body
  std::string parameters;  // the text of its parameter list, whose names hide shared variables in the body
  std::size_t introducer_end;  // index of the introducer's ']'
  std::string captures;        // what to add just before it: empty if nothing
};

// Reads the lambda whose introducer opens at `open` in `text`: where its
// body is, and the captures to add for the `shared_names` its body uses
// (none when it captures all by reference or names none of them); nothing
// when the text does not go on as a lambda.
std::optional<lambda_reading> read_lambda(std::string_view text, std::size_t open,
                                          const std::vector<std::string>& shared_names);

}  // namespace cusim::cc
