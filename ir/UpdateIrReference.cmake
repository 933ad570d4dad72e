# Writes docs/ir-reference.md: a header, then the dialect documentation that
# mlir-tblgen -gen-dialect-doc generated from ir/TorusOps.td.
file(READ ${INPUT} body)
file(WRITE ${OUTPUT}
"<!-- Generated from ir/TorusOps.td and ir/TorusDialect.td by\n"
"     `cmake --build build --target update-ir-reference`; do not edit. -->\n"
"# The torus dialect: IR reference\n\n"
"Every op of the `torus` dialect, its operands, attributes and results, as\n"
"declared in ODS. The tracing API that produces these ops is described in\n"
"[tracing.md](tracing.md).\n\n"
"${body}")
