//===- StripBuildTimes.cpp - Reproducible gpu.binary objects --------------===//

#include "QiMeng/Transforms/GPU/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/BuiltinOps.h"

namespace mlir::qimeng {
#define GEN_PASS_DEF_QIMENGSTRIPBUILDTIMESPASS
#include "QiMeng/Transforms/GPU/Passes.h.inc"

namespace {

class QiMengStripBuildTimesPass
    : public impl::QiMengStripBuildTimesPassBase<QiMengStripBuildTimesPass> {
public:
  void runOnOperation() override {
    getOperation().walk([](gpu::BinaryOp binary) {
      SmallVector<Attribute> objects;
      for (Attribute attr : binary.getObjectsAttr()) {
        auto object = dyn_cast<gpu::ObjectAttr>(attr);
        DictionaryAttr properties = object ? object.getProperties() : nullptr;
        if (!properties) {
          objects.push_back(attr);
          continue;
        }
        SmallVector<NamedAttribute> kept;
        for (NamedAttribute property : properties)
          if (!property.getName().getValue().ends_with("TimeInMs"))
            kept.push_back(property);
        objects.push_back(gpu::ObjectAttr::get(
            object.getContext(), object.getTarget(), object.getFormat(),
            object.getObject(), DictionaryAttr::get(object.getContext(), kept),
            object.getKernels()));
      }
      binary.setObjectsAttr(ArrayAttr::get(binary.getContext(), objects));
    });
  }
};

} // namespace
} // namespace mlir::qimeng
