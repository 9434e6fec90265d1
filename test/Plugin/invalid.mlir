// The plugin's verifiers run inside mlir-opt too.
// REQUIRES: plugin
// RUN: %mlir_opt %s --load-dialect-plugin=%qimeng_plugin --verify-diagnostics

func.func @f() { return }
qimeng.plan @f provenance "builtin" {
  // expected-error @+1 {{vector width must be a power of two, got 3}}
  qimeng.vectorize "x" width 3
}
