#include "ptx/ptx_program.hpp"

#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <map>
#include <stdexcept>

namespace cusim::detail::ptx {

unsigned int bits_of(type t) {
  switch (t) {
    case type::b8: case type::u8: case type::s8: return 8;
    case type::b16: case type::u16: case type::s16: case type::f16: return 16;
    case type::b32: case type::u32: case type::s32: case type::f32: return 32;
    case type::b64: case type::u64: case type::s64: case type::f64: return 64;
    case type::pred: return 1;
    case type::none: break;
  }
  return 64;
}

bool is_signed(type t) { return t == type::s8 || t == type::s16 || t == type::s32 || t == type::s64; }
bool is_float(type t) { return t == type::f16 || t == type::f32 || t == type::f64; }

namespace {

struct parse_failure : std::runtime_error {
  using std::runtime_error::runtime_error;
};
[[noreturn]] void fail(const std::string& why) { throw parse_failure(why); }

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

bool is_name_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$' || c == '%'; }

const std::map<std::string_view, type>& type_names() {
  static const std::map<std::string_view, type> names{
      {"b8", type::b8},   {"b16", type::b16}, {"b32", type::b32}, {"b64", type::b64}, {"u8", type::u8},
      {"u16", type::u16}, {"u32", type::u32}, {"u64", type::u64}, {"s8", type::s8},   {"s16", type::s16},
      {"s32", type::s32}, {"s64", type::s64}, {"f16", type::f16}, {"f32", type::f32}, {"f64", type::f64},
      {"pred", type::pred}};
  return names;
}

const std::map<std::string_view, special>& special_names() {
  static const std::map<std::string_view, special> names{
      {"%laneid", special::laneid}, {"%warpid", special::warpid}, {"%nwarpid", special::nwarpid},
      {"%smid", special::smid}, {"%nsmid", special::nsmid}, {"%gridid", special::gridid},
      {"%tid.x", special::tid_x}, {"%tid.y", special::tid_y}, {"%tid.z", special::tid_z},
      {"%ntid.x", special::ntid_x}, {"%ntid.y", special::ntid_y}, {"%ntid.z", special::ntid_z},
      {"%ctaid.x", special::ctaid_x}, {"%ctaid.y", special::ctaid_y}, {"%ctaid.z", special::ctaid_z},
      {"%nctaid.x", special::nctaid_x}, {"%nctaid.y", special::nctaid_y}, {"%nctaid.z", special::nctaid_z},
      {"%lanemask_eq", special::lanemask_eq}, {"%lanemask_lt", special::lanemask_lt},
      {"%lanemask_le", special::lanemask_le}, {"%lanemask_gt", special::lanemask_gt},
      {"%lanemask_ge", special::lanemask_ge}, {"%clock", special::clock}, {"%clock_hi", special::clock_hi},
      {"%clock64", special::clock64}, {"%globaltimer", special::globaltimer},
      {"%globaltimer_lo", special::globaltimer_lo}, {"%globaltimer_hi", special::globaltimer_hi},
      {"%dynamic_smem_size", special::dynamic_smem_size}, {"%total_smem_size", special::total_smem_size},
      {"%cluster_ctarank", special::cluster_ctarank}, {"%cluster_nctarank", special::cluster_nctarank},
      {"%clusterid.x", special::clusterid_x}, {"%clusterid.y", special::clusterid_y},
      {"%clusterid.z", special::clusterid_z}, {"%nclusterid.x", special::nclusterid_x},
      {"%nclusterid.y", special::nclusterid_y}, {"%nclusterid.z", special::nclusterid_z},
      {"%cluster_ctaid.x", special::cluster_ctaid_x}, {"%cluster_ctaid.y", special::cluster_ctaid_y},
      {"%cluster_ctaid.z", special::cluster_ctaid_z}, {"%cluster_nctaid.x", special::cluster_nctaid_x},
      {"%cluster_nctaid.y", special::cluster_nctaid_y}, {"%cluster_nctaid.z", special::cluster_nctaid_z}};
  return names;
}

const std::map<std::string_view, opcode>& opcode_names() {
  static const std::map<std::string_view, opcode> names{
      {"mov", opcode::mov}, {"add", opcode::add}, {"sub", opcode::sub}, {"mul", opcode::mul},
      {"mad", opcode::mad}, {"fma", opcode::fma}, {"div", opcode::div}, {"rem", opcode::rem},
      {"abs", opcode::abs}, {"neg", opcode::neg}, {"min", opcode::min}, {"max", opcode::max},
      {"and", opcode::and_}, {"or", opcode::or_}, {"xor", opcode::xor_}, {"not", opcode::not_},
      {"cnot", opcode::cnot}, {"shl", opcode::shl}, {"shr", opcode::shr}, {"popc", opcode::popc},
      {"clz", opcode::clz}, {"brev", opcode::brev}, {"bfind", opcode::bfind}, {"bfe", opcode::bfe},
      {"bfi", opcode::bfi}, {"prmt", opcode::prmt}, {"lop3", opcode::lop3}, {"shf", opcode::shf},
      {"setp", opcode::setp}, {"selp", opcode::selp}, {"cvt", opcode::cvt}, {"cvta", opcode::cvta},
      {"rcp", opcode::rcp}, {"sqrt", opcode::sqrt}, {"rsqrt", opcode::rsqrt}, {"ex2", opcode::ex2},
      {"lg2", opcode::lg2}, {"sin", opcode::sin}, {"cos", opcode::cos}, {"copysign", opcode::copysign},
      {"ld", opcode::ld}, {"ldu", opcode::ld}, {"st", opcode::st}, {"atom", opcode::atom},
      {"red", opcode::red}, {"bar", opcode::bar}, {"barrier", opcode::bar}, {"membar", opcode::membar},
      {"fence", opcode::fence}, {"shfl", opcode::shfl}, {"vote", opcode::vote},
      {"activemask", opcode::activemask}, {"match", opcode::match}, {"redux", opcode::redux},
      {"nanosleep", opcode::nanosleep}, {"trap", opcode::trap}, {"brkpt", opcode::brkpt},
      {"exit", opcode::exit},
      {"bra", opcode::bra}, {"addc", opcode::add}, {"subc", opcode::sub}, {"madc", opcode::mad},
      {"vadd2", opcode::simd2}, {"vsub2", opcode::simd2}, {"vabsdiff2", opcode::simd2}, {"vmin2", opcode::simd2},
      {"vmax2", opcode::simd2}, {"vavrg2", opcode::simd2}, {"vadd4", opcode::simd4}, {"vsub4", opcode::simd4},
      {"vabsdiff4", opcode::simd4}, {"vmin4", opcode::simd4}, {"vmax4", opcode::simd4}, {"vavrg4", opcode::simd4},
      {"vadd", opcode::video}, {"vsub", opcode::video}, {"vabsdiff", opcode::video}, {"vmin", opcode::video},
      {"vmax", opcode::video}, {"vshl", opcode::video}, {"vshr", opcode::video}};
  return names;
}

// Memory-ordering and cache qualifiers: cusim's memory is the host's, and
// its accesses already order as the strongest of them require.
bool ignored_modifier(std::string_view m) {
  static const char* const names[] = {"ca", "cg", "cs", "lu", "cv", "nc", "volatile", "relaxed", "acquire",
                                      "release", "acq_rel", "sc", "weak", "wb", "wt", "sync", "aligned",
                                      "full", "mmio", "unified", "noftz", "cta", "gpu", "sys", "cluster"};
  for (const char* n : names) {
    if (m == n) return true;
  }
  return m.starts_with("L1::") || m.starts_with("L2::") || m.starts_with("level::");
}

class parser {
 public:
  explicit parser(std::string_view text) : text_(text) {}

  program run() {
    try {
      split_statements();
      resolve_labels();
    } catch (const parse_failure& e) {
      result_.error = e.what();
    }
    return std::move(result_);
  }

 private:
  // Statements end at ';'; braces open and close register scopes (their
  // registers simply stay declared); comments go.
  void split_statements() {
    std::string current;
    unsigned int line = 1, statement_line = 1, vector_depth = 0;
    for (std::size_t i = 0; i < text_.size(); ++i) {
      const char c = text_[i];
      if (c == '/' && i + 1 < text_.size() && text_[i + 1] == '/') {
        while (i < text_.size() && text_[i] != '\n') ++i;
        ++line;
        continue;
      }
      if (c == '/' && i + 1 < text_.size() && text_[i + 1] == '*') {
        const std::size_t end = text_.find("*/", i + 2);
        if (end == std::string_view::npos) fail("an unterminated /* comment");
        for (std::size_t j = i; j < end; ++j) line += text_[j] == '\n';
        i = end + 1;
        continue;
      }
      if (c == '\n') ++line;
      // Braces are a vector operand `{a, b}` inside an instruction's
      // operands (after its opcode), a register scope elsewhere.
      const std::string_view so_far = trim(current);
      const bool in_operands = opcode_is_complete(current);
      if (c == '{' && in_operands) ++vector_depth;
      if (c == '}' && vector_depth > 0) {
        --vector_depth;
      } else if ((c == '{' && !in_operands) || c == '}') {
        statement(so_far, statement_line);  // a label before the brace
        current.clear();
        continue;
      }
      if (c == ';') {
        statement(trim(current), statement_line);
        current.clear();
        continue;
      }
      if (trim(current).empty()) statement_line = line;
      current.push_back(c);
    }
    if (!trim(current).empty()) statement(trim(current), statement_line);
  }

  // Whether the statement text so far has its opcode and the whitespace
  // after it (past a guard `@p`): its operands have begun.
  static bool opcode_is_complete(std::string_view text) {
    const auto after_token = [](std::string_view t, std::size_t from) {
      const std::size_t start = t.find_first_not_of(" \t\n\r", from);
      if (start == std::string_view::npos) return std::string_view::npos;
      return t.find_first_of(" \t\n\r", start);
    };
    const std::string_view so_far = trim(text);
    if (so_far.empty() || so_far.back() == ':') return false;
    std::size_t end = after_token(text, 0);
    if (end != std::string_view::npos && so_far.front() == '@') end = after_token(text, end);
    return end != std::string_view::npos;
  }

  void statement(std::string_view s, unsigned int line) {
    // Labels: `name:` before an instruction, or alone.
    for (;;) {
      std::size_t n = 0;
      while (n < s.size() && is_name_char(s[n])) ++n;
      if (n == 0 || n >= s.size() || s[n] != ':' || (n + 1 < s.size() && s[n + 1] == ':')) break;
      labels_[std::string(s.substr(0, n))] = static_cast<std::uint32_t>(result_.instructions.size());
      s = trim(s.substr(n + 1));
    }
    if (s.empty()) return;
    if (s.starts_with(".reg")) return declare_registers(trim(s.substr(4)));
    if (s.front() == '.') fail("the directive '" + std::string(s) + "'");
    instruction ins;
    ins.line = line;
    ins.text = std::string(s);
    if (s.front() == '@') {
      std::size_t n = 1;
      while (n < s.size() && !std::isspace(static_cast<unsigned char>(s[n]))) ++n;
      ins.guard = value_of(s.substr(1, n - 1));
      s = trim(s.substr(n));
    }
    std::size_t n = 0;
    while (n < s.size() && !std::isspace(static_cast<unsigned char>(s[n]))) ++n;
    decode_opcode(s.substr(0, n), ins);
    read_operands(trim(s.substr(n)), ins);
    if (ins.op == opcode::bra) {
      if (ins.operand_count != 1) fail("bra takes one label");
      branch_names_.emplace_back(result_.instructions.size(), pending_label_);
    }
    result_.instructions.push_back(std::move(ins));
  }

  // `.reg .u32 a, b<4>;` (names with `<N>` declare name0 ... nameN-1).
  void declare_registers(std::string_view s) {
    if (s.empty() || s.front() != '.') fail("a .reg without a type");
    std::size_t n = 1;
    while (n < s.size() && std::isalnum(static_cast<unsigned char>(s[n]))) ++n;
    const auto t = type_names().find(s.substr(1, n - 1));
    if (t == type_names().end()) fail("a .reg of type '" + std::string(s.substr(0, n)) + "'");
    for (std::string_view name : split_top_level(s.substr(n))) {
      name = trim(name);
      const std::size_t angle = name.find('<');
      if (angle == std::string_view::npos) {
        add_register(std::string(name), t->second);
        continue;
      }
      const std::string_view digits = name.substr(angle + 1, name.size() > angle + 1 ? name.size() - angle - 2 : 0);
      const bool well_formed = name.back() == '>' && !digits.empty() && digits.size() <= 4 &&
                               digits.find_first_not_of("0123456789") == std::string_view::npos;
      const int count = well_formed ? std::stoi(std::string(digits)) : 0;
      if (count <= 0 || count > 1024) fail("the register range '" + std::string(name) + "'");
      for (int i = 0; i < count; ++i) add_register(std::string(name.substr(0, angle)) + std::to_string(i), t->second);
    }
  }

  void add_register(const std::string& name, type t) {
    std::string key = unescape(name);
    if (key.empty() || !is_name_char(key.front())) fail("the register name '" + name + "'");
    registers_[key] = static_cast<std::uint32_t>(result_.registers.size());
    result_.registers.push_back(t);
  }

  // `%%name` in the template is the name `%name`.
  static std::string unescape(std::string_view name) {
    if (name.starts_with("%%")) return std::string(name.substr(1));
    return std::string(name);
  }

  void decode_opcode(std::string_view word, instruction& ins) {
    std::vector<std::string_view> parts;
    for (std::size_t start = 0;;) {
      const std::size_t dot = word.find('.', start);
      parts.push_back(word.substr(start, dot == std::string_view::npos ? dot : dot - start));
      if (dot == std::string_view::npos) break;
      start = dot + 1;
    }
    const auto op = opcode_names().find(parts[0]);
    if (op == opcode_names().end()) fail("the instruction '" + std::string(parts[0]) + "'");
    ins.op = op->second;
    if (parts[0] == "addc" || parts[0] == "subc" || parts[0] == "madc") ins.carry_in = true;
    if (ins.op == opcode::simd2 || ins.op == opcode::simd4 || ins.op == opcode::video) {
      ins.v = video_operation(parts[0], ins.op == opcode::video);
    }
    const bool is_barrier = parts[0] == "bar" || parts[0] == "barrier";
    if (is_barrier) ins.v = variant::bar_sync;  // `barrier` alone is barrier.sync
    for (std::size_t i = 1; i < parts.size(); ++i) modifier(parts[0], parts[i], ins);
    if (ins.op == opcode::cvt && ins.from == type::none) fail("cvt needs a destination and a source type");
  }

  static variant video_operation(std::string_view name, bool scalar) {
    if (!scalar) name.remove_suffix(1);  // the lane count
    if (name == "vshl") return variant::video_shl;
    if (name == "vshr") return variant::video_shr;
    if (name == "vadd") return variant::video_add;
    if (name == "vsub") return variant::video_sub;
    if (name == "vabsdiff") return variant::video_absdiff;
    if (name == "vmin") return variant::video_min;
    if (name == "vmax") return variant::video_max;
    return variant::video_average;
  }

  void modifier(std::string_view base, std::string_view m, instruction& ins) {
    if (ins.op == opcode::simd2 || ins.op == opcode::simd4 || ins.op == opcode::video) {
      // vop.dtype.atype.btype{.sat}{.clamp|.wrap}{.add|.min|.max}: the
      // operands' signedness is atype's.
      if (m == "u32" || m == "s32") {
        const type t = m == "s32" ? type::s32 : type::u32;
        if (ins.t == type::none) ins.t = t;
        else if (ins.from == type::none) ins.from = t;
        else ins.from_b = t;
        return;
      }
      if (m == "sat") { ins.sat = true; return; }
      if (m == "clamp" || m == "wrap") { ins.clamp = m == "clamp"; return; }
      if (m == "add") { ins.mode = 1; return; }
      if (ins.op == opcode::video && (m == "min" || m == "max")) { ins.mode = m == "min" ? 2 : 3; return; }
      fail("the modifier ." + std::string(m) + " of '" + std::string(base) + "' (cusim runs its plain and .add forms)");
    }
    if (const auto t = type_names().find(m); t != type_names().end()) {
      if (ins.op == opcode::cvt && ins.t != type::none) ins.from = t->second;
      else if (ins.t == type::none) ins.t = t->second;
      else if (ins.op == opcode::setp || ins.op == opcode::bfind || ins.op == opcode::popc || ins.op == opcode::clz) ins.from = t->second;
      else fail("two types on '" + std::string(base) + "'");
      return;
    }
    if (ignored_modifier(m)) return;
    static const std::map<std::string_view, rounding> roundings{
        {"rn", rounding::rn}, {"rz", rounding::rz}, {"rm", rounding::rm}, {"rp", rounding::rp},
        {"rni", rounding::rni}, {"rzi", rounding::rzi}, {"rmi", rounding::rmi}, {"rpi", rounding::rpi}};
    if (const auto r = roundings.find(m); r != roundings.end()) {
      ins.round = r->second;
      return;
    }
    if (m == "ftz") { ins.ftz = true; return; }
    if (m == "sat") { ins.sat = true; return; }
    if (m == "approx") { ins.approx = true; return; }
    if (m == "cc") { ins.carry_out = true; return; }
    if (m == "v2" || m == "v4") { ins.vector = static_cast<std::uint8_t>(m[1] - '0'); return; }
    static const std::map<std::string_view, space> spaces{
        {"global", space::global}, {"shared", space::shared}, {"shared::cta", space::shared},
        {"local", space::local}, {"const", space::constant}, {"param", space::param}};
    if (const auto sp = spaces.find(m); sp != spaces.end()) {
      ins.where = sp->second;
      return;
    }
    if (ins.op == opcode::setp) {
      static const std::map<std::string_view, compare> compares{
          {"eq", compare::eq}, {"ne", compare::ne}, {"lt", compare::lt}, {"le", compare::le},
          {"gt", compare::gt}, {"ge", compare::ge}, {"lo", compare::lo}, {"ls", compare::ls},
          {"hi", compare::hi}, {"hs", compare::hs}, {"equ", compare::equ}, {"neu", compare::neu},
          {"ltu", compare::ltu}, {"leu", compare::leu}, {"gtu", compare::gtu}, {"geu", compare::geu},
          {"num", compare::num}, {"nan", compare::nan}};
      if (const auto c = compares.find(m); c != compares.end()) {
        ins.cmp = c->second;
        return;
      }
    }
    if (const variant v = variant_for(ins.op, m); v != variant::none) {
      ins.v = v;
      return;
    }
    if (ins.op == opcode::shf && (m == "wrap" || m == "clamp")) { ins.clamp = m == "clamp"; return; }
    if (ins.op == opcode::bfind && m == "shiftamt") { ins.clamp = true; return; }
    if (ins.op == opcode::prmt) {
      static const char* const modes[] = {"f4e", "b4e", "rc8", "ecl", "ecr", "rc16"};
      for (std::uint8_t i = 0; i < 6; ++i) {
        if (m == modes[i]) { ins.mode = static_cast<std::uint8_t>(i + 1); return; }
      }
    }
    if (ins.op == opcode::bra && m == "uni") return;  // all threads branch alike: a hint
    if (ins.op == opcode::bar && m == "warp") { ins.v = variant::bar_warp_sync; return; }
    if (ins.op == opcode::bar && (m == "red" || m == "popc")) { ins.v = variant::bar_red_popc; return; }
    if (ins.op == opcode::bar && m == "and") { ins.v = variant::bar_red_and; return; }
    if (ins.op == opcode::bar && m == "or") { ins.v = variant::bar_red_or; return; }
    fail("the modifier ." + std::string(m) + " of '" + std::string(base) + "'");
  }

  static variant variant_for(opcode op, std::string_view m) {
    struct entry { opcode op; const char* name; variant v; };
    static const entry table[] = {
        {opcode::mul, "lo", variant::lo}, {opcode::mul, "hi", variant::hi}, {opcode::mul, "wide", variant::wide},
        {opcode::mad, "lo", variant::lo}, {opcode::mad, "hi", variant::hi}, {opcode::mad, "wide", variant::wide},
        {opcode::shfl, "up", variant::shfl_up}, {opcode::shfl, "down", variant::shfl_down},
        {opcode::shfl, "bfly", variant::shfl_bfly}, {opcode::shfl, "idx", variant::shfl_idx},
        {opcode::vote, "all", variant::vote_all}, {opcode::vote, "any", variant::vote_any},
        {opcode::vote, "uni", variant::vote_uni}, {opcode::vote, "ballot", variant::vote_ballot},
        {opcode::match, "any", variant::match_any}, {opcode::match, "all", variant::match_all},
        {opcode::shf, "l", variant::shift_left}, {opcode::shf, "r", variant::shift_right},
        {opcode::redux, "add", variant::redux_add}, {opcode::redux, "min", variant::redux_min},
        {opcode::redux, "max", variant::redux_max}, {opcode::redux, "and", variant::redux_and},
        {opcode::redux, "or", variant::redux_or}, {opcode::redux, "xor", variant::redux_xor},
        {opcode::bar, "sync", variant::bar_sync}, {opcode::bar, "arrive", variant::bar_arrive},
        {opcode::membar, "gl", variant::scope_gpu}, {opcode::cvta, "to", variant::cvta_to},
    };
    for (const entry& e : table) {
      if (e.op == op && m == e.name) return e.v;
    }
    if (op == opcode::atom || op == opcode::red) {
      static const std::pair<const char*, variant> atomics[] = {
          {"add", variant::atom_add}, {"min", variant::atom_min}, {"max", variant::atom_max},
          {"inc", variant::atom_inc}, {"dec", variant::atom_dec}, {"and", variant::atom_and},
          {"or", variant::atom_or},   {"xor", variant::atom_xor}, {"exch", variant::atom_exch},
          {"cas", variant::atom_cas}};
      for (const auto& [name, v] : atomics) {
        if (m == name) return v;
      }
    }
    return variant::none;
  }

  // Splits at commas outside [] and {}.
  static std::vector<std::string_view> split_top_level(std::string_view s) {
    std::vector<std::string_view> parts;
    int depth = 0;
    std::size_t start = 0;
    for (std::size_t i = 0; i < s.size(); ++i) {
      if (s[i] == '[' || s[i] == '{') ++depth;
      if (s[i] == ']' || s[i] == '}') --depth;
      if (s[i] == ',' && depth == 0) {
        parts.push_back(trim(s.substr(start, i - start)));
        start = i + 1;
      }
    }
    if (!trim(s.substr(start)).empty()) parts.push_back(trim(s.substr(start)));
    return parts;
  }

  void read_operands(std::string_view s, instruction& ins) {
    const auto parts = split_top_level(s);
    if (parts.size() > 5) fail("more operands than cusim reads");
    for (std::string_view part : parts) {
      if (part.empty()) fail("an empty operand");
      operand& o = ins.operands[ins.operand_count++];
      if (ins.op == opcode::bra) {
        pending_label_ = std::string(part);
        continue;
      }
      if (part.front() == '[') {
        if (part.back() != ']') fail("the address '" + std::string(part) + "'");
        o.s = operand::shape::address;
        read_address(trim(part.substr(1, part.size() - 2)), o);
      } else if (part.front() == '{') {
        if (part.back() != '}') fail("the vector '" + std::string(part) + "'");
        o.s = operand::shape::vector;
        for (std::string_view element : split_top_level(part.substr(1, part.size() - 2))) {
          if (o.count == 4) fail("a vector of more than four elements");
          o.elements[o.count++] = value_of(element);
        }
        if (o.count != 2 && o.count != 4) fail("the vector '" + std::string(part) + "' (cusim takes two or four elements)");
      } else if (const std::size_t bar = part.find('|'); bar != std::string_view::npos) {
        o.v = value_of(trim(part.substr(0, bar)));
        o.second = value_of(trim(part.substr(bar + 1)));
      } else {
        o.v = value_of(part);
      }
    }
  }

  // [base], [base+offset], [base-offset], [offset]
  void read_address(std::string_view s, operand& o) {
    std::size_t sign = s.find_first_of("+-", 1);
    if (sign == std::string_view::npos) {
      if (!s.empty() && (std::isdigit(static_cast<unsigned char>(s.front())) || s.front() == '-')) {
        o.offset = static_cast<std::int64_t>(immediate(s).bits);
      } else {
        o.v = value_of(s);
      }
      return;
    }
    o.v = value_of(trim(s.substr(0, sign)));
    const value_ref offset = immediate(trim(s.substr(sign + 1)));
    o.offset = static_cast<std::int64_t>(s[sign] == '-' ? 0 - offset.bits : offset.bits);  // wraps, never overflows
  }

  value_ref value_of(std::string_view s) {
    s = trim(s);
    if (s.empty()) fail("an empty operand");
    value_ref v;
    if (s.front() == '!') {
      if (s.size() > 1 && s[1] == '!') fail("the operand '" + std::string(s) + "'");
      v = value_of(s.substr(1));
      v.negated = true;
      return v;
    }
    if (s == "_") {
      v.k = value_ref::kind::sink;
      return v;
    }
    if (s.size() >= 2 && s[0] == '%' && std::isdigit(static_cast<unsigned char>(s[1]))) {
      v.k = value_ref::kind::asm_operand;
      const std::string_view digits = s.substr(1);
      if (digits.size() > 2 || digits.find_first_not_of("0123456789") != std::string_view::npos) {
        fail("the operand '" + std::string(s) + "' (byte and half selectors such as %1.b0 are not run)");
      }
      v.index = static_cast<std::uint32_t>(std::stoul(std::string(digits)));
      if (v.index >= 30) fail("the operand %" + std::to_string(v.index));
      result_.asm_operands = std::max(result_.asm_operands, v.index + 1);
      return v;
    }
    if (std::isdigit(static_cast<unsigned char>(s.front())) || s.front() == '-' || s.front() == '+') return immediate(s);
    const std::string name = unescape(s);
    if (const auto sp = special_names().find(name); sp != special_names().end()) {
      v.k = value_ref::kind::special;
      v.index = static_cast<std::uint32_t>(sp->second);
      return v;
    }
    if (const auto r = registers_.find(name); r != registers_.end()) {
      v.k = value_ref::kind::reg;
      v.index = r->second;
      return v;
    }
    if (name.starts_with("%")) fail("the special register or undeclared register '" + name + "'");
    fail("the undeclared register '" + name + "'");
  }

  // 42, -1, 0x1F, 0b101, 017 (octal), 42U, 0f3F800000 (float bits),
  // 0d3FF0000000000000 (double bits), 1.5 (a double, converted where used).
  static value_ref immediate(std::string_view s) {
    value_ref v;
    v.k = value_ref::kind::immediate;
    if (s.empty()) fail("an empty number");
    bool negative = false;
    if (s.front() == '-' || s.front() == '+') {
      negative = s.front() == '-';
      s = trim(s.substr(1));
    }
    if (s.empty()) fail("a sign without a number");
    const std::string text(s);
    char* end = nullptr;
    errno = 0;
    if ((text.starts_with("0f") || text.starts_with("0F")) && text.size() == 10) {
      v.bits = std::strtoull(text.c_str() + 2, &end, 16);
      v.real_bits = 32;
    } else if ((text.starts_with("0d") || text.starts_with("0D")) && text.size() == 18) {
      v.bits = std::strtoull(text.c_str() + 2, &end, 16);
      v.real_bits = 64;
    } else if (text.find_first_of(".eE") != std::string::npos && !text.starts_with("0x") && !text.starts_with("0X")) {
      const double d = std::strtod(text.c_str(), &end);
      std::memcpy(&v.bits, &d, sizeof d);
      v.real_bits = 64;
    } else if (text.starts_with("0b") || text.starts_with("0B")) {
      v.bits = std::strtoull(text.c_str() + 2, &end, 2);
    } else {
      v.bits = std::strtoull(text.c_str(), &end, 0);  // 0x.., 0.. (octal) and decimal, as PTX reads them
    }
    if (end != nullptr && *end == 'U') ++end;
    if (end == nullptr || end == text.c_str() || *end != '\0' || errno == ERANGE) fail("the number '" + text + "'");
    if (negative) {
      if (v.real_bits == 64) v.bits ^= 1ull << 63;
      else if (v.real_bits == 32) v.bits ^= 1ull << 31;
      else v.bits = ~v.bits + 1;
    }
    return v;
  }

  void resolve_labels() {
    for (const auto& [at, name] : branch_names_) {
      const auto label = labels_.find(name);
      if (label == labels_.end()) fail("bra to the undefined label '" + name + "'");
      result_.instructions[at].target = label->second;
    }
  }

  std::string_view text_;
  program result_;
  std::map<std::string, std::uint32_t> registers_;
  std::map<std::string, std::uint32_t> labels_;
  std::vector<std::pair<std::size_t, std::string>> branch_names_;
  std::string pending_label_;
};

}  // namespace

program parse(std::string_view text) { return parser(text).run(); }

effects effects_of(const program& p) {
  effects e;
  for (const instruction& ins : p.instructions) {
    switch (ins.op) {
      case opcode::bar: case opcode::shfl: case opcode::vote: case opcode::activemask:
      case opcode::match: case opcode::redux:
        e.waits = true;
        break;
      case opcode::membar: case opcode::fence: case opcode::atom: case opcode::red: case opcode::nanosleep:
      case opcode::bra:  // a loop in asm may wait for another thread
        e.spins = true;
        break;
      default: break;
    }
  }
  return e;
}

}  // namespace cusim::detail::ptx
