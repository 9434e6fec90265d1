// A JSON plan is checked exactly like IR; errors name the JSON path.
// RUN: not qimeng-opt %S/Inputs/matmul.mlir --qimeng-import-plan-json=input=%S/Inputs/bad-width.json 2>&1 | FileCheck %s --check-prefix=WIDTH
// WIDTH: bad-width.json:1:1: error: invalid plan JSON at 'actions[1]': 'qimeng.vectorize' op vector width 8 of 32-bit elements is 256 bits; a GPU memory access is at most 128 bits

// RUN: not qimeng-opt %S/Inputs/matmul.mlir --qimeng-import-plan-json=input=%S/Inputs/bad-shape.json 2>&1 | FileCheck %s --check-prefix=SHAPE
// SHAPE: bad-shape.json:1:1: error: invalid plan JSON at 'actions[0].level': expected one of block, warp, thread, reduction

// RUN: not qimeng-opt %S/Inputs/matmul.mlir --qimeng-import-plan-json=input=%S/Inputs/not-json.json 2>&1 | FileCheck %s --check-prefix=SYNTAX
// SYNTAX: not-json.json:1:1: error: plan is not valid JSON: {{.+}}

// RUN: not qimeng-opt %S/Inputs/matmul.mlir --qimeng-import-plan-json=input=%t.missing.json 2>&1 | FileCheck %s --check-prefix=MISSING
// MISSING: error: cannot read plan JSON: {{.+}}
