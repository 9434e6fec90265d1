//===- StandaloneMain.cpp - Fuzz targets without libFuzzer ----------------===//
//
// The driver of a fuzz target in a normal build (no clang, no libFuzzer):
//
//   fuzz-X [--mutations=N] [--seed=S] [--timeout=SECONDS] [--max-len=BYTES]
//          [--crash-dir=DIR] [--verbose] CORPUS_DIR_OR_FILE...
//
// runs the target on the empty input, on every file of the corpus (each
// directory's files in name order), then on N mutations of them, each made
// from the seed and its own number alone (so any of them can be made again):
// bit flips, byte inserts and deletes, a chunk copied elsewhere, two files
// spliced, a decimal number replaced by an extreme one. Inputs run in a
// child process, one after another; a crash, an abort or an input that
// takes longer than the time limit ends the child, is reported with the
// input's origin and written to --crash-dir (made if need be), and a new
// child goes on with the next input. The target's own output goes to a log
// shown only for a crash (all of it with --verbose). The last line is "N
// inputs, C crashes"; the exit status is 1 when C > 0.
//
//===----------------------------------------------------------------------===//

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <fstream>
#include <iterator>
#include <random>
#include <sstream>
#include <string>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Signals.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
extern "C" __attribute__((weak)) int LLVMFuzzerInitialize(int *argc,
                                                          char ***argv);

namespace {

struct Options {
  uint64_t mutations = 0;
  uint64_t seed = 1;
  double timeout = 10;
  size_t maxLen = 64 * 1024;
  std::string crashDir = ".";
  bool verbose = false;
  std::vector<std::string> paths;
};

/// One input of the run: a corpus file or a mutation.
struct Input {
  std::string bytes;
  std::string origin;
};

[[noreturn]] void usage(const char *program, const std::string &problem) {
  std::fprintf(stderr,
               "%s: %s\nusage: %s [--mutations=N] [--seed=S] "
               "[--timeout=SECONDS] [--max-len=BYTES] [--crash-dir=DIR] "
               "[--verbose] CORPUS_DIR_OR_FILE...\n",
               program, problem.c_str(), program);
  std::exit(2);
}

bool parseNumber(const std::string &text, uint64_t &out) {
  if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos)
    return false;
  errno = 0;
  unsigned long long value = std::strtoull(text.c_str(), nullptr, 10);
  if (errno == ERANGE)
    return false;
  out = value;
  return true;
}

/// The program's name without its directory, for messages.
const char *getProgramName(const char *argv0) {
  const char *slash = std::strrchr(argv0, '/');
  return slash ? slash + 1 : argv0;
}

Options parseOptions(int argc, char **argv) {
  const char *program = getProgramName(argv[0]);
  Options options;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    auto value = [&](const char *name) -> const char * {
      size_t length = std::strlen(name);
      if (arg.compare(0, length, name) == 0 && arg.size() > length &&
          arg[length] == '=')
        return argv[i] + length + 1;
      return nullptr;
    };
    uint64_t number = 0;
    if (const char *v = value("--mutations")) {
      if (!parseNumber(v, options.mutations))
        usage(program, "--mutations takes a count");
    } else if (const char *v = value("--seed")) {
      if (!parseNumber(v, options.seed))
        usage(program, "--seed takes a number");
    } else if (const char *v = value("--timeout")) {
      char *end = nullptr;
      options.timeout = std::strtod(v, &end);
      if (!*v || *end || !(options.timeout > 0))
        usage(program, "--timeout takes a positive number of seconds");
    } else if (const char *v = value("--max-len")) {
      if (!parseNumber(v, number) || number == 0)
        usage(program, "--max-len takes a positive byte count");
      options.maxLen = number;
    } else if (const char *v = value("--crash-dir")) {
      options.crashDir = v;
    } else if (arg == "--verbose") {
      options.verbose = true;
    } else if (arg.size() > 1 && arg[0] == '-') {
      usage(program, "unknown option '" + arg + "'");
    } else {
      options.paths.push_back(arg);
    }
  }
  return options;
}

bool readFile(const std::string &path, std::string &out) {
  std::ifstream file(path, std::ios::binary);
  if (!file)
    return false;
  out.assign(std::istreambuf_iterator<char>(file),
             std::istreambuf_iterator<char>());
  return !file.bad();
}

/// The corpus files of `path` (a file, or a directory's regular files in
/// name order).
std::vector<Input> loadCorpus(const char *program, const std::string &path,
                              size_t maxLen) {
  std::vector<std::string> files;
  struct stat info;
  if (::stat(path.c_str(), &info) != 0)
    usage(program, "cannot read '" + path + "'");
  if (S_ISDIR(info.st_mode)) {
    DIR *dir = ::opendir(path.c_str());
    if (!dir)
      usage(program, "cannot list '" + path + "'");
    while (dirent *entry = ::readdir(dir)) {
      std::string file = path + "/" + entry->d_name;
      if (entry->d_name[0] != '.' && ::stat(file.c_str(), &info) == 0 &&
          S_ISREG(info.st_mode))
        files.push_back(file);
    }
    ::closedir(dir);
    std::sort(files.begin(), files.end());
  } else {
    files.push_back(path);
  }
  std::vector<Input> inputs;
  for (const std::string &file : files) {
    Input input;
    if (!readFile(file, input.bytes))
      usage(program, "cannot read '" + file + "'");
    // As libFuzzer does with -max_len.
    if (input.bytes.size() > maxLen)
      input.bytes.resize(maxLen);
    input.origin = file;
    inputs.push_back(std::move(input));
  }
  return inputs;
}

//===----------------------------------------------------------------------===//
// Mutations
//===----------------------------------------------------------------------===//

/// Numbers that break size arithmetic, parsers and range checks.
const char *const kExtremeNumbers[] = {
    "0",
    "1",
    "-1",
    "2",
    "3",
    "7",
    "8",
    "16",
    "31",
    "32",
    "33",
    "63",
    "64",
    "127",
    "128",
    "255",
    "256",
    "1023",
    "1024",
    "65535",
    "65536",
    "2147483647",
    "2147483648",
    "-2147483648",
    "4294967295",
    "4294967296",
    "9223372036854775807",
    "9223372036854775808",
    "-9223372036854775808",
    "18446744073709551615",
    "18446744073709551616",
    "4611686018427387904",
    "99999999999999999999999",
    "1e308",
    "1e309",
    "-0",
    "0.5",
    "nan",
    "inf",
};

/// Bytes that open, close or separate things in the formats fuzzed here.
const char kSyntaxBytes[] = "{}[]()<>\"',:;=%@#^!?x \n\t\\0123456789-+.eE";

class Mutator {
public:
  Mutator(const std::vector<Input> &corpus, size_t maxLen)
      : corpus(corpus), maxLen(maxLen) {}

  /// Mutation `index` of the run seeded with `seed`.
  Input make(uint64_t seed, uint64_t index) const {
    std::mt19937_64 random(seed * 0x9E3779B97F4A7C15ull ^ (index + 1));
    Input input;
    size_t base = 0;
    if (!corpus.empty()) {
      base = random() % corpus.size();
      input.bytes = corpus[base].bytes;
    }
    std::ostringstream origin;
    origin << "mutation " << index << " (seed " << seed << ") of "
           << (corpus.empty() ? std::string("the empty input")
                              : corpus[base].origin)
           << ":";
    unsigned count = 1 + random() % 3;
    for (unsigned i = 0; i < count; ++i)
      origin << " " << mutate(input.bytes, random);
    if (input.bytes.size() > maxLen)
      input.bytes.resize(maxLen);
    input.origin = origin.str();
    return input;
  }

private:
  static size_t below(std::mt19937_64 &random, size_t bound) {
    return bound ? random() % bound : 0;
  }

  /// Applies one mutation to `bytes`; returns its name.
  const char *mutate(std::string &bytes, std::mt19937_64 &random) const {
    switch (random() % 8) {
    case 0:
      if (bytes.empty())
        break;
      for (unsigned flips = 1 + random() % 4; flips; --flips)
        bytes[below(random, bytes.size())] ^= char(1u << (random() % 8));
      return "bit-flip";
    case 1: {
      size_t at = below(random, bytes.size() + 1);
      char byte = random() % 2
                      ? char(random())
                      : kSyntaxBytes[below(random, sizeof(kSyntaxBytes) - 1)];
      bytes.insert(bytes.begin() + at, byte);
      return "insert";
    }
    case 2: {
      if (bytes.empty())
        break;
      size_t at = below(random, bytes.size());
      size_t length =
          1 + below(random, std::min<size_t>(16, bytes.size() - at));
      bytes.erase(at, length);
      return "delete";
    }
    case 3: {
      if (bytes.empty())
        break;
      size_t from = below(random, bytes.size());
      size_t length =
          1 + below(random, std::min<size_t>(64, bytes.size() - from));
      std::string chunk = bytes.substr(from, length);
      bytes.insert(below(random, bytes.size() + 1), chunk);
      return "copy-chunk";
    }
    case 4:
    case 5: {
      if (corpus.empty())
        break;
      const std::string &other = corpus[below(random, corpus.size())].bytes;
      size_t keep = below(random, bytes.size() + 1);
      size_t from = below(random, other.size() + 1);
      bytes = bytes.substr(0, keep) + other.substr(from);
      return "splice";
    }
    case 6:
    case 7:
      if (replaceNumber(bytes, random))
        return "number";
      break;
    }
    // The chosen mutation does not apply: insert a byte instead.
    bytes.insert(bytes.begin() + below(random, bytes.size() + 1),
                 char(random()));
    return "insert";
  }

  /// Replaces a decimal number token of `bytes` by an extreme number, the
  /// number's neighbour or a random one; false when there is none.
  static bool replaceNumber(std::string &bytes, std::mt19937_64 &random) {
    std::vector<std::pair<size_t, size_t>> numbers;
    for (size_t i = 0; i < bytes.size();) {
      if (!std::isdigit(static_cast<unsigned char>(bytes[i]))) {
        ++i;
        continue;
      }
      size_t start = i;
      if (start > 0 && bytes[start - 1] == '-')
        --start;
      while (i < bytes.size() &&
             std::isdigit(static_cast<unsigned char>(bytes[i])))
        ++i;
      numbers.emplace_back(start, i - start);
    }
    if (numbers.empty())
      return false;
    auto [at, length] = numbers[below(random, numbers.size())];
    std::string replacement;
    switch (random() % 3) {
    case 0: {
      long long value =
          std::strtoll(bytes.substr(at, length).c_str(), nullptr, 10);
      replacement = std::to_string(random() % 2 ? value + 1 : value - 1);
      break;
    }
    case 1:
      replacement = std::to_string(int64_t(random()) >> (random() % 64));
      break;
    default:
      replacement = kExtremeNumbers[below(
          random, sizeof(kExtremeNumbers) / sizeof(kExtremeNumbers[0]))];
    }
    bytes.replace(at, length, replacement);
    return true;
  }

  const std::vector<Input> &corpus;
  size_t maxLen;
};

//===----------------------------------------------------------------------===//
// Running
//===----------------------------------------------------------------------===//

/// Inputs 0..corpus are the empty input and the corpus; then mutations.
Input getInput(uint64_t index, const std::vector<Input> &corpus,
               const Mutator &mutator, uint64_t seed) {
  if (index == 0)
    return {"", "the empty input"};
  if (index <= corpus.size())
    return corpus[index - 1];
  return mutator.make(seed, index - 1 - corpus.size());
}

/// A name for a reproducer of `bytes`: its FNV-1a hash.
std::string reproducerName(const std::string &bytes) {
  uint64_t hash = 0xcbf29ce484222325ull;
  for (char c : bytes)
    hash = (hash ^ static_cast<unsigned char>(c)) * 0x100000001b3ull;
  char name[32];
  std::snprintf(name, sizeof(name), "crash-%016llx",
                static_cast<unsigned long long>(hash));
  return name;
}

/// Prints the last `lines` lines of the file `path` to stderr.
void printTail(const std::string &path, size_t lines) {
  std::string text;
  if (!readFile(path, text) || text.empty())
    return;
  size_t at = text.size();
  for (size_t seen = 0; at > 0 && seen <= lines;)
    if (text[--at] == '\n')
      ++seen;
  if (at > 0)
    ++at;
  std::fprintf(stderr, "--- the target's output (last lines) ---\n%s",
               text.c_str() + at);
  if (text.back() != '\n')
    std::fputc('\n', stderr);
  std::fprintf(stderr, "---\n");
}

} // namespace

int main(int argc, char **argv) {
  Options options = parseOptions(argc, argv);
  const char *program = getProgramName(argv[0]);
  if (options.paths.empty())
    usage(program, "no corpus given");
  std::vector<Input> corpus;
  for (const std::string &path : options.paths) {
    std::vector<Input> files = loadCorpus(program, path, options.maxLen);
    std::move(files.begin(), files.end(), std::back_inserter(corpus));
  }
  // A crash prints its stack (into the log shown with it).
  llvm::sys::PrintStackTraceOnErrorSignal(argv[0]);
  // Once, in this process, so every child starts initialized.
  if (LLVMFuzzerInitialize)
    LLVMFuzzerInitialize(&argc, &argv);
  std::fflush(stdout);
  std::fflush(stderr);

  Mutator mutator(corpus, options.maxLen);
  uint64_t total = 1 + corpus.size() + options.mutations;
  // The input a child is running, for the parent to name when it dies.
  auto *current = static_cast<volatile uint64_t *>(
      ::mmap(nullptr, sizeof(uint64_t), PROT_READ | PROT_WRITE,
             MAP_SHARED | MAP_ANONYMOUS, -1, 0));
  if (current == MAP_FAILED) {
    std::perror("mmap");
    return 2;
  }
  const char *tmp = std::getenv("TMPDIR");
  std::string logTemplate =
      std::string(tmp && *tmp ? tmp : "/tmp") + "/qimeng-fuzz-log-XXXXXX";
  int logFd = options.verbose ? -1 : ::mkstemp(logTemplate.data());
  std::string logPath = logFd >= 0 ? logTemplate : "";
  if (logFd >= 0)
    ::close(logFd);

  uint64_t crashes = 0;
  for (uint64_t next = 0; next < total;) {
    *current = next;
    std::fflush(stdout);
    std::fflush(stderr);
    pid_t child = ::fork();
    if (child < 0) {
      std::perror("fork");
      return 2;
    }
    if (child == 0) {
      if (!logPath.empty()) {
        int fd = ::open(logPath.c_str(), O_WRONLY | O_TRUNC);
        if (fd >= 0) {
          ::dup2(fd, STDOUT_FILENO);
          ::dup2(fd, STDERR_FILENO);
          ::close(fd);
        }
      }
      // A time limit per input: SIGALRM ends the child.
      struct itimerval limit = {};
      limit.it_value.tv_sec = static_cast<time_t>(options.timeout);
      limit.it_value.tv_usec = static_cast<suseconds_t>(
          (options.timeout - double(limit.it_value.tv_sec)) * 1e6);
      struct itimerval off = {};
      for (uint64_t index = next; index < total; ++index) {
        *current = index;
        Input input = getInput(index, corpus, mutator, options.seed);
        ::setitimer(ITIMER_REAL, &limit, nullptr);
        LLVMFuzzerTestOneInput(
            reinterpret_cast<const uint8_t *>(input.bytes.data()),
            input.bytes.size());
        ::setitimer(ITIMER_REAL, &off, nullptr);
      }
      std::fflush(stdout);
      std::fflush(stderr);
      ::_exit(0);
    }
    int status = 0;
    while (::waitpid(child, &status, 0) < 0 && errno == EINTR)
      ;
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0 && *current + 1 == total)
      break;
    // The child died on input *current.
    uint64_t failed = *current;
    ++crashes;
    Input input = getInput(failed, corpus, mutator, options.seed);
    std::string how;
    if (WIFSIGNALED(status) && WTERMSIG(status) == SIGALRM)
      how = "timed out (over " + std::to_string(options.timeout) + " s)";
    else if (WIFSIGNALED(status))
      how = std::string("died of signal ") + std::to_string(WTERMSIG(status)) +
            " (" + strsignal(WTERMSIG(status)) + ")";
    else
      how = "exited with status " + std::to_string(WEXITSTATUS(status));
    std::string reproducer =
        options.crashDir + "/" + reproducerName(input.bytes);
    (void)llvm::sys::fs::create_directories(options.crashDir);
    std::ofstream out(reproducer, std::ios::binary);
    out << input.bytes;
    out.close();
    std::fprintf(stderr, "%s: CRASH: input %llu, %s, %s; reproducer: %s\n",
                 program, static_cast<unsigned long long>(failed),
                 input.origin.c_str(), how.c_str(),
                 out ? reproducer.c_str() : "(could not be written)");
    if (!logPath.empty())
      printTail(logPath, 40);
    next = failed + 1;
  }
  if (!logPath.empty())
    ::unlink(logPath.c_str());
  std::printf("%s: %llu inputs, %llu crashes\n", program,
              static_cast<unsigned long long>(total),
              static_cast<unsigned long long>(crashes));
  return crashes ? 1 : 0;
}
