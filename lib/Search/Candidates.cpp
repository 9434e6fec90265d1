//===- Candidates.cpp - Plans near the built-in one -----------------------===//

#include "QiMeng/Search/Candidates.h"

#include "QiMeng/Dialect/QiMeng/IR/PlanJSON.h"
#include "QiMeng/Dialect/QiMeng/IR/QiMengDialect.h"
#include "QiMeng/Planner/OpFamily.h"
#include "QiMeng/Planner/PlanResources.h"
#include "QiMeng/Support/ErrorCollector.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <functional>
#include <random>

using namespace mlir;
using namespace mlir::qimeng;

namespace {

/// Threads an SM keeps resident, and blocks.
constexpr int64_t kMaxThreadsPerSM = 2048;
constexpr int64_t kMaxBlocksPerSM = 32;
/// Threads per SM that hide memory latency well enough (8 warps).
constexpr int64_t kLatencyThreadsPerSM = 256;
/// The widest vector a move makes (lanes).
constexpr int64_t kMaxVectorWidth = 8;
constexpr int64_t kMaxPipelineStages = 4;
/// The deepest TMA ring a wgmma move makes.
constexpr int64_t kMaxWgmmaStages = 6;

/// A change to a plan's action list; false when it does not apply.
struct Move {
  std::string name;
  std::function<bool(llvm::json::Array &)> apply;
};

llvm::StringRef getString(const llvm::json::Value &action,
                          llvm::StringRef key) {
  const llvm::json::Object *object = action.getAsObject();
  if (!object)
    return "";
  return object->getString(key).value_or("");
}

/// Indices of the actions `kind` of `target` (and, for tiles, `level`).
SmallVector<size_t> findActions(const llvm::json::Array &actions,
                                llvm::StringRef kind, llvm::StringRef target,
                                llvm::StringRef level = "") {
  SmallVector<size_t> found;
  for (auto [i, action] : llvm::enumerate(actions))
    if (getString(action, "action") == kind &&
        getString(action, "target") == target &&
        (level.empty() || getString(action, "level") == level))
      found.push_back(i);
  return found;
}

std::optional<int64_t> getInteger(llvm::json::Value &action,
                                  llvm::StringRef key) {
  return action.getAsObject()->getInteger(key);
}

llvm::json::Array *getSizes(llvm::json::Value &action) {
  return action.getAsObject()->getArray("sizes");
}

/// The ops that share a launch: a host and the ops fused into it.
struct Group {
  std::string host;
  SmallVector<std::string> members; ///< host first
};

SmallVector<Group> getGroups(const llvm::json::Array &actions) {
  llvm::SetVector<llvm::StringRef> targets;
  llvm::StringMap<std::string> hostOf;
  for (const llvm::json::Value &action : actions) {
    targets.insert(getString(action, "target"));
    if (getString(action, "action") == "fuse")
      hostOf[getString(action, "op")] = getString(action, "target").str();
  }
  SmallVector<Group> groups;
  for (llvm::StringRef target : targets) {
    if (hostOf.count(target))
      continue;
    Group group{target.str(), {target.str()}};
    for (auto &[fused, host] : hostOf)
      if (host == target)
        group.members.push_back(fused.str());
    // StringMap order is not stable: sort the fused ops by name.
    std::sort(group.members.begin() + 1, group.members.end());
    groups.push_back(std::move(group));
  }
  return groups;
}

/// The loops of `group`'s host that its block tile tiles (a nonzero size):
/// its parallel loops, in order. A member with fewer loops than the host
/// (a fill fused into a reduction, a matmul's fill) has these loops.
SmallVector<size_t> getBlockTiledLoops(const llvm::json::Array &base,
                                       const Group &group) {
  SmallVector<size_t> loops;
  SmallVector<size_t> blockTiles =
      findActions(base, "tile", group.host, "block");
  if (blockTiles.size() != 1)
    return loops;
  llvm::json::Value blockTile = base[blockTiles.front()];
  if (const llvm::json::Array *sizes = getSizes(blockTile))
    for (size_t d = 0; d < sizes->size(); ++d)
      if (std::optional<int64_t> size = (*sizes)[d].getAsInteger();
          size && *size != 0)
        loops.push_back(d);
  return loops;
}

/// Moves on the tile sizes of `group` at `level`: each tiled loop of the
/// host doubled or halved, with the members that tile it alike (at the
/// same loop, or, for a member with fewer loops, at the same one of the
/// host's block-tiled loops).
void addTileMoves(const llvm::json::Array &base, const Group &group,
                  llvm::StringRef level, std::vector<Move> &moves) {
  SmallVector<size_t> hostTiles = findActions(base, "tile", group.host, level);
  if (hostTiles.size() != 1)
    return;
  llvm::json::Value hostTile = base[hostTiles.front()];
  const llvm::json::Array *sizes = getSizes(hostTile);
  if (!sizes)
    return;
  SmallVector<size_t> tiledLoops = getBlockTiledLoops(base, group);
  size_t hostLoops = sizes->size();
  for (size_t d = 0; d < sizes->size(); ++d) {
    std::optional<int64_t> size = (*sizes)[d].getAsInteger();
    if (!size || *size <= 0)
      continue;
    for (bool grow : {true, false}) {
      int64_t changed = grow ? *size * 2 : *size / 2;
      if (changed < 1)
        continue;
      std::string name = llvm::formatv("{0} {1}[{2}] {3}->{4}", group.host,
                                       level, d, *size, changed);
      Group captured = group;
      std::string levelName = level.str();
      int64_t old = *size;
      // Where the member with fewer loops has loop `d`, if it has it.
      std::optional<size_t> inShorter;
      if (const size_t *at = llvm::find(tiledLoops, d); at != tiledLoops.end())
        inShorter = at - tiledLoops.begin();
      moves.push_back(
          {name, [captured, levelName, d, inShorter, hostLoops,
                  loops = tiledLoops.size(), old,
                  changed](llvm::json::Array &actions) {
             bool changedHost = false;
             for (const std::string &member : captured.members)
               for (size_t i :
                    findActions(actions, "tile", member, levelName)) {
                 llvm::json::Array *s = getSizes(actions[i]);
                 if (!s)
                   continue;
                 std::optional<size_t> at = d;
                 if (s->size() < hostLoops)
                   at = s->size() == loops ? inShorter : std::nullopt;
                 if (!at || *at >= s->size() || (*s)[*at].getAsInteger() != old)
                   continue;
                 (*s)[*at] = changed;
                 changedHost |= member == captured.host;
               }
             return changedHost;
           }});
    }
  }
}

/// Moves on the vector width of `group`: halved (dropped at 1) or doubled.
void addVectorMoves(const llvm::json::Array &base, const Group &group,
                    std::vector<Move> &moves) {
  SmallVector<size_t> found = findActions(base, "vectorize", group.host);
  if (found.size() != 1)
    return;
  llvm::json::Value action = base[found.front()];
  std::optional<int64_t> width = getInteger(action, "width");
  if (!width)
    return;
  for (int64_t changed : {*width / 2, *width * 2}) {
    if (changed > kMaxVectorWidth || changed == *width)
      continue;
    std::string name =
        changed <= 1
            ? llvm::formatv("{0} no vectors", group.host).str()
            : llvm::formatv("{0} vector {1}->{2}", group.host, *width, changed)
                  .str();
    Group captured = group;
    int64_t old = *width;
    moves.push_back(
        {name, [captured, old, changed](llvm::json::Array &actions) {
           bool changedHost = false;
           for (const std::string &member : captured.members) {
             SmallVector<size_t> at = findActions(actions, "vectorize", member);
             if (at.size() != 1 ||
                 getInteger(actions[at.front()], "width") != old)
               continue;
             if (changed <= 1)
               actions.erase(actions.begin() + at.front());
             else
               (*actions[at.front()].getAsObject())["width"] = changed;
             changedHost |= member == captured.host;
           }
           return changedHost;
         }});
  }
}

/// Moves on the software pipeline of `host`: one stage more or fewer (up to
/// `maxStages`), or none; a promoting plan without one gets two stages.
void addPipelineMoves(const llvm::json::Array &base, const std::string &host,
                      std::vector<Move> &moves,
                      int64_t maxStages = kMaxPipelineStages) {
  SmallVector<size_t> found = findActions(base, "pipeline", host);
  if (found.empty()) {
    if (findActions(base, "promote", host).empty())
      return;
    moves.push_back({host + " pipeline 2", [host](llvm::json::Array &actions) {
                       SmallVector<size_t> last;
                       for (auto [i, action] : llvm::enumerate(actions))
                         if (getString(action, "target") == host &&
                             getString(action, "action") != "fuse")
                           last.assign(1, i);
                       if (last.empty())
                         return false;
                       actions.insert(actions.begin() + last.front() + 1,
                                      llvm::json::Object{{"action", "pipeline"},
                                                         {"target", host},
                                                         {"stages", 2}});
                       return true;
                     }});
    return;
  }
  llvm::json::Value action = base[found.front()];
  std::optional<int64_t> stages = getInteger(action, "stages");
  if (!stages)
    return;
  for (int64_t changed : {*stages - 1, *stages + 1}) {
    if (changed > maxStages)
      continue;
    std::string name = changed < 2 ? host + " no pipeline"
                                   : llvm::formatv("{0} pipeline {1}->{2}",
                                                   host, *stages, changed)
                                         .str();
    moves.push_back({name, [host, changed](llvm::json::Array &actions) {
                       SmallVector<size_t> at =
                           findActions(actions, "pipeline", host);
                       if (at.size() != 1)
                         return false;
                       if (changed < 2)
                         actions.erase(actions.begin() + at.front());
                       else
                         (*actions[at.front()].getAsObject())["stages"] =
                             changed;
                       return true;
                     }});
  }
}

/// Whether `host` computes on wgmma (one TMA + wgmma kernel, whose shape
/// the wgmma moves change as a whole).
bool takesWgmmaMoves(const llvm::json::Array &base, const std::string &host) {
  for (size_t i : findActions(base, "mma", host))
    if (getString(base[i], "kind") == "wgmma")
      return true;
  return false;
}

/// Moves on a wgmma kernel: the block's N (128 <-> 256, with the warp tile
/// and the instruction), its consumer warpgroups (64-row warp tiles, two
/// consumers, <-> 128-row ones, one) and its stages (one more or fewer, up
/// to kMaxWgmmaStages).
void addWgmmaMoves(const llvm::json::Array &base, const std::string &host,
                   std::vector<Move> &moves) {
  // Sets a size counted from the end of the list (see sizeOf).
  auto setSize = [](llvm::json::Value &action, llvm::StringRef key,
                    size_t fromEnd, int64_t value) {
    llvm::json::Array *list = action.getAsObject()->getArray(key);
    if (!list || fromEnd >= list->size())
      return false;
    (*list)[list->size() - 1 - fromEnd] = value;
    return true;
  };
  // Sizes counted from the end: (m, n, k) are the last three loops, after
  // any batch loop.
  auto sizeOf = [&](llvm::StringRef level, size_t fromEnd) -> int64_t {
    SmallVector<size_t> at = findActions(base, "tile", host, level);
    if (at.size() != 1)
      return 0;
    llvm::json::Value action = base[at.front()];
    const llvm::json::Array *list = getSizes(action);
    if (!list || fromEnd >= list->size())
      return 0;
    return (*list)[list->size() - 1 - fromEnd].getAsInteger().value_or(0);
  };
  int64_t n = sizeOf("block", 1), rows = sizeOf("warp", 2);
  if (n == 128 || n == 256) {
    int64_t changed = n == 128 ? 256 : 128;
    moves.push_back(
        {llvm::formatv("{0} wgmma N {1}->{2}", host, n, changed).str(),
         [host, changed, setSize](llvm::json::Array &actions) {
           SmallVector<size_t> block = findActions(actions, "tile", host, "block");
           SmallVector<size_t> warp = findActions(actions, "tile", host, "warp");
           SmallVector<size_t> mma = findActions(actions, "mma", host);
           if (block.size() != 1 || warp.size() != 1 || mma.size() != 1)
             return false;
           return setSize(actions[block.front()], "sizes", 1, changed) &&
                  setSize(actions[warp.front()], "sizes", 1, changed) &&
                  setSize(actions[mma.front()], "shape", 1, changed);
         }});
  }
  if (rows == 64 || rows == 128) {
    int64_t changed = rows == 64 ? 128 : 64;
    moves.push_back(
        {llvm::formatv("{0} wgmma warpgroup rows {1}->{2}", host, rows,
                       changed)
             .str(),
         [host, changed, setSize](llvm::json::Array &actions) {
           SmallVector<size_t> warp = findActions(actions, "tile", host, "warp");
           return warp.size() == 1 &&
                  setSize(actions[warp.front()], "sizes", 2, changed);
         }});
  }
  // Stages: the common pipeline moves, deeper (the stages are dynamic
  // shared memory, up to 227 KB); no pipeline is two stages.
  addPipelineMoves(base, host, moves, kMaxWgmmaStages);
}

/// Padding the rows of `host`'s shared tiles (by 4 or 8 elements: the plan
/// checks reject a padding that leaves rows misaligned for the element
/// type), or no more padding; and dropping shared memory (and the pipeline it
/// feeds), unless tensor cores read it.
void addPromoteMoves(const llvm::json::Array &base, const std::string &host,
                     std::vector<Move> &moves) {
  SmallVector<size_t> promotes = findActions(base, "promote", host);
  if (promotes.empty())
    return;
  llvm::json::Value promote = base[promotes.front()];
  int64_t pad = getInteger(promote, "pad").value_or(0);
  for (int64_t changed :
       pad == 0 ? SmallVector<int64_t>{4, 8} : SmallVector<int64_t>{0}) {
    std::string name =
        changed == 0
            ? host + " no shared padding"
            : llvm::formatv("{0} shared rows padded by {1}", host, changed)
                  .str();
    moves.push_back({name, [host, changed](llvm::json::Array &actions) {
                       SmallVector<size_t> at =
                           findActions(actions, "promote", host);
                       for (size_t i : at)
                         (*actions[i].getAsObject())["pad"] = changed;
                       return !at.empty();
                     }});
  }
  if (!findActions(base, "mma", host).empty())
    return;
  moves.push_back(
      {host + " no shared memory", [host](llvm::json::Array &actions) {
         for (llvm::StringRef kind : {"pipeline", "promote"}) {
           SmallVector<size_t> at = findActions(actions, kind, host);
           for (size_t i : llvm::reverse(at))
             actions.erase(actions.begin() + i);
         }
         return true;
       }});
}

/// A seeded Fisher-Yates shuffle whose result is the same everywhere
/// (std::shuffle's is left to the library).
template <typename T>
void shuffle(std::vector<T> &items, std::mt19937_64 &rng) {
  for (size_t i = items.size(); i > 1; --i)
    std::swap(items[i - 1], items[rng() % i]);
}

} // namespace

std::vector<CandidatePlan>
mlir::qimeng::generateNeighbours(const llvm::json::Object &plan,
                                 uint64_t seed) {
  const llvm::json::Array *actions = plan.getArray("actions");
  if (!actions)
    return {};
  std::vector<Move> moves;
  for (const Group &group : getGroups(*actions)) {
    if (takesWgmmaMoves(*actions, group.host)) {
      addWgmmaMoves(*actions, group.host, moves);
      continue;
    }
    for (llvm::StringRef level : {"block", "warp", "thread", "reduction"})
      addTileMoves(*actions, group, level, moves);
    addVectorMoves(*actions, group, moves);
    addPipelineMoves(*actions, group.host, moves);
    addPromoteMoves(*actions, group.host, moves);
  }
  std::mt19937_64 rng(seed);
  std::vector<CandidatePlan> singles, pairs;
  auto make = [&](ArrayRef<const Move *> applied,
                  std::vector<CandidatePlan> &into) {
    llvm::json::Object copy = plan;
    llvm::json::Array *list = copy.getArray("actions");
    std::string names;
    for (const Move *move : applied) {
      if (!move->apply(*list))
        return;
      names += (names.empty() ? "" : "; ") + move->name;
    }
    copy["provenance"] = "tuned";
    into.push_back({std::move(copy), "neighbour", names, 1});
  };
  for (const Move &move : moves)
    make({&move}, singles);
  for (size_t i = 0; i < moves.size(); ++i)
    for (size_t j = i + 1; j < moves.size(); ++j)
      make({&moves[i], &moves[j]}, pairs);
  shuffle(singles, rng);
  shuffle(pairs, rng);
  // Without duplicates (two moves can reach one plan) or the plan itself.
  std::set<std::string> seen = {getPlanIdentity(plan)};
  std::vector<CandidatePlan> result;
  for (std::vector<CandidatePlan> *group : {&singles, &pairs})
    for (CandidatePlan &candidate : *group)
      if (seen.insert(getPlanIdentity(candidate.plan)).second)
        result.push_back(std::move(candidate));
  return result;
}

FailureOr<double> mlir::qimeng::estimatePlanCost(PlanOp plan,
                                                 func::FuncOp kernel,
                                                 const TargetProfile &profile,
                                                 std::string *problem) {
  std::vector<TargetResources> resources;
  std::vector<std::string> problems =
      checkPlanResources(plan, kernel, profile, &resources);
  if (!problems.empty()) {
    if (problem)
      *problem = problems.front();
    return failure();
  }
  llvm::StringMap<linalg::LinalgOp> ops;
  kernel.walk([&](linalg::LinalgOp op) {
    if (auto tag = op->getAttrOfType<StringAttr>(QiMengDialect::kTagAttrName))
      ops[tag.getValue()] = op;
  });
  llvm::StringSet<> fused;
  llvm::StringMap<ArrayRef<int64_t>> blockTiles;
  for (MacroActionOpInterface action : plan.getActions()) {
    if (auto fuse = dyn_cast<FuseOp>(action.getOperation()))
      fused.insert(fuse.getOp());
    if (auto tile = dyn_cast<TileOp>(action.getOperation()))
      if (tile.getLevel() == TileLevel::block)
        blockTiles[tile.getTarget()] = tile.getSizes();
  }
  // Each launch (an op not fused into another) is slowed down, against a
  // GPU it fills, by the SMs it leaves idle, by a last wave that is only
  // partly full, by too few warps per SM to hide memory latency, and by
  // blocks that are not whole warps. The kernel's cost is the sum.
  double cost = 0;
  for (const TargetResources &r : resources) {
    if (fused.contains(r.target))
      continue;
    auto op = ops.lookup(r.target);
    if (!op)
      continue;
    SmallVector<int64_t> bounds = op.getStaticLoopRanges();
    ArrayRef<int64_t> tile = blockTiles.lookup(r.target);
    int64_t blocks = 1;
    for (auto [d, bound] : llvm::enumerate(bounds)) {
      if (ShapedType::isDynamic(bound) || d >= tile.size() || tile[d] <= 0)
        continue;
      blocks *= llvm::divideCeil(bound, tile[d]);
    }
    int64_t threads = std::max<int64_t>(1, r.threadsPerBlock);
    int64_t perSM = std::min(kMaxBlocksPerSM, kMaxThreadsPerSM / threads);
    if (r.sharedBytes > 0)
      perSM = std::min(perSM, profile.sharedMemPerSM / r.sharedBytes);
    if (r.registersPerThread > 0)
      perSM = std::min(perSM, profile.registersPerSM /
                                  (r.registersPerThread * threads));
    perSM = std::max<int64_t>(perSM, 1);
    double coverage = std::min(1.0, double(blocks) / double(profile.numSMs));
    int64_t slots = profile.numSMs * perSM;
    int64_t waves = llvm::divideCeil(blocks, slots);
    double tail = waves > 1 ? double(blocks) / double(waves * slots) : 1.0;
    int64_t residentThreads =
        std::min<int64_t>(perSM, llvm::divideCeil(blocks, profile.numSMs)) *
        threads;
    double latency =
        std::min(1.0, double(residentThreads) / double(kLatencyThreadsPerSM));
    double lanes = double(llvm::alignTo(threads, profile.warpSize));
    double warpUse = double(threads) / lanes;
    cost += 1.0 / (coverage * tail * latency * warpUse);
  }
  return cost > 0 ? cost : 1.0;
}

CandidateSelection
mlir::qimeng::selectCandidates(PlanOp plan, func::FuncOp kernel,
                               const TargetProfile &profile,
                               unsigned maxCandidates, uint64_t seed,
                               llvm::ArrayRef<CandidatePlan> proposed) {
  CandidateSelection selection;
  llvm::json::Object base = planToJSON(plan);
  // The default's cost; a plan of the input that does not fit is still
  // measured (as the baseline), with nothing pruned against it.
  FailureOr<double> defaultCost = estimatePlanCost(plan, kernel, profile);
  selection.candidates.push_back({base, "default", "", 1});
  if (maxCandidates <= 1)
    return selection;
  llvm::StringSet<> seen;
  seen.insert(getPlanIdentity(base));

  // The candidates are built beside a copy of the kernel, in a scratch
  // module, so the op verifiers can check them against it.
  MLIRContext *context = kernel.getContext();
  OwningOpRef<ModuleOp> scratch = ModuleOp::create(kernel.getLoc());
  OpBuilder builder(context);
  builder.setInsertionPointToEnd(scratch->getBody());
  auto copy = cast<func::FuncOp>(builder.clone(*kernel));

  // Sets the candidate's relative cost; false (counted) when it is illegal.
  auto check = [&](CandidatePlan &candidate) {
    std::string problem;
    FailureOr<double> cost = failure();
    {
      ErrorCollector diagnostics(context);
      builder.setInsertionPointToEnd(scratch->getBody());
      FailureOr<PlanOp> built =
          planFromJSON(builder, kernel.getLoc(),
                       llvm::json::Value(llvm::json::Object(candidate.plan)));
      if (succeeded(built)) {
        cost = estimatePlanCost(*built, copy, profile, &problem);
        (*built)->erase();
      } else {
        problem = diagnostics.first();
      }
    }
    if (failed(cost)) {
      ++selection.illegal;
      if (selection.illegalReasons.size() < 8)
        selection.illegalReasons.push_back(
            (candidate.moves.empty() ? candidate.source : candidate.moves) +
            ": " + problem);
      return false;
    }
    candidate.relativeCost = succeeded(defaultCost) ? *cost / *defaultCost : 1;
    return true;
  };

  // Proposed plans (the LLM's) come right after the default, in their own
  // order and unpruned: the cost model is no judge of what they try.
  for (const CandidatePlan &offered : proposed) {
    CandidatePlan candidate = offered;
    if (selection.candidates.size() >= maxCandidates)
      break;
    if (!seen.insert(getPlanIdentity(candidate.plan)).second ||
        !check(candidate))
      continue;
    ++selection.proposed;
    selection.candidates.push_back(std::move(candidate));
  }

  std::vector<CandidatePlan> neighbours = generateNeighbours(base, seed);
  selection.generated = neighbours.size();
  std::vector<CandidatePlan> legal;
  for (CandidatePlan &candidate : neighbours) {
    if (seen.contains(getPlanIdentity(candidate.plan)) || !check(candidate))
      continue;
    if (candidate.relativeCost > kMaxRelativeCost) {
      ++selection.pruned;
      continue;
    }
    legal.push_back(std::move(candidate));
  }
  // Cheapest estimate first; the seeded order breaks ties (estimates are
  // rounded: the model cannot tell near-equal plans apart).
  std::stable_sort(legal.begin(), legal.end(),
                   [](const CandidatePlan &a, const CandidatePlan &b) {
                     return std::round(a.relativeCost * 100) <
                            std::round(b.relativeCost * 100);
                   });
  for (CandidatePlan &candidate : legal) {
    if (selection.candidates.size() >= maxCandidates)
      break;
    selection.candidates.push_back(std::move(candidate));
  }
  return selection;
}

std::pair<std::string, llvm::json::Value>
mlir::qimeng::describeKernel(func::FuncOp kernel) {
  std::string mainFamily, firstFamily;
  llvm::json::Array ops;
  kernel.walk([&](linalg::LinalgOp op) {
    Family family = classify(op);
    llvm::json::Array bounds, iterators, types;
    for (int64_t bound : op.getStaticLoopRanges())
      bounds.push_back(ShapedType::isDynamic(bound) ? llvm::json::Value(nullptr)
                                                    : llvm::json::Value(bound));
    for (utils::IteratorType iterator : op.getIteratorTypesArray())
      iterators.push_back(utils::stringifyIteratorType(iterator));
    for (Type type : op->getOperandTypes())
      types.push_back(llvm::formatv("{0}", getElementTypeOrSelf(type)).str());
    llvm::json::Object entry{{"family", familyName(family)},
                             {"op", op->getName().getStringRef()},
                             {"loops", std::move(bounds)},
                             {"iterators", std::move(iterators)},
                             {"element_types", std::move(types)}};
    if (auto tag = op->getAttrOfType<StringAttr>(QiMengDialect::kTagAttrName))
      entry["tag"] = tag.getValue();
    ops.push_back(std::move(entry));
    if (mainFamily.empty() &&
        (family == Family::Matmul || family == Family::Contraction))
      mainFamily = familyName(family).str();
    if (firstFamily.empty() && !isa<linalg::FillOp>(op))
      firstFamily = familyName(family).str();
  });
  std::string family = !mainFamily.empty()    ? mainFamily
                       : !firstFamily.empty() ? firstFamily
                                              : "elementwise";
  return {family, llvm::json::Object{{"ops", std::move(ops)}}};
}
