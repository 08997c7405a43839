/*
 * types.h: the language's named types, one row each.  The IR reader and
 * printer, the type checker, kdiff, both emitters, krun and kgen all
 * expand this one table (through ir/type.c's TypeInfo):
 *
 *     T(ENUM, kind, scalar, rows, cols, "ir", "warp", "alias")
 *
 * kind    TK_BOOL, TK_SINT, TK_UINT, TK_FLOAT (scalars), TK_VEC, TK_MAT,
 *         TK_QUAT, TK_XFORM
 * scalar  the component type's ENUM (a scalar names itself)
 * rows    components of a vector, quaternion (4) or transform (7); rows
 *         of a matrix; 1 for a scalar
 * cols    columns of a matrix, else 1
 * "ir"    the type in IR text and in the runtime's C names (ks_<ir>)
 * "warp"  Warp's canonical name, as wp.<warp>
 * "alias" a second spelling wp.<alias> accepts (vec3 for vec3f), or ""
 *
 * Arrays (an element type and a rank from 1 to 4) are not rows: they are
 * made as they are needed (ty_array).  A row's place is its Type, so
 * TY_FLOAT is a constant; the order of the scalars is Warp's (and a
 * conversion's rank: ty_rank).  A new vector width or scalar type is a
 * row here, plus its runtime code (runtime/ksynth.h).
 */
/* clang-format off */
T(VOID, TK_VOID, VOID, 0, 0, "void", "", "")
T(BOOL, TK_BOOL, BOOL, 1, 1, "bool", "bool", "")
T(INT8, TK_SINT, INT8, 1, 1, "int8", "int8", "")
T(UINT8, TK_UINT, UINT8, 1, 1, "uint8", "uint8", "")
T(INT16, TK_SINT, INT16, 1, 1, "int16", "int16", "")
T(UINT16, TK_UINT, UINT16, 1, 1, "uint16", "uint16", "")
T(INT, TK_SINT, INT, 1, 1, "int", "int32", "")
T(UINT32, TK_UINT, UINT32, 1, 1, "uint32", "uint32", "")
T(INT64, TK_SINT, INT64, 1, 1, "int64", "int64", "")
T(UINT64, TK_UINT, UINT64, 1, 1, "uint64", "uint64", "")
T(HALF, TK_FLOAT, HALF, 1, 1, "float16", "float16", "")
T(FLOAT, TK_FLOAT, FLOAT, 1, 1, "float", "float32", "")
T(DOUBLE, TK_FLOAT, DOUBLE, 1, 1, "float64", "float64", "")

/* float vectors */
T(VEC2, TK_VEC, FLOAT, 2, 1, "vec2", "vec2f", "vec2")
T(VEC3, TK_VEC, FLOAT, 3, 1, "vec3", "vec3f", "vec3")
T(VEC4, TK_VEC, FLOAT, 4, 1, "vec4", "vec4f", "vec4")
T(SVEC, TK_VEC, FLOAT, 6, 1, "spatial_vector", "spatial_vectorf", "spatial_vector")
T(VEC2H, TK_VEC, HALF, 2, 1, "vec2h", "vec2h", "")
T(VEC3H, TK_VEC, HALF, 3, 1, "vec3h", "vec3h", "")
T(VEC4H, TK_VEC, HALF, 4, 1, "vec4h", "vec4h", "")
T(SVECH, TK_VEC, HALF, 6, 1, "spatial_vectorh", "spatial_vectorh", "")
T(VEC2D, TK_VEC, DOUBLE, 2, 1, "vec2d", "vec2d", "")
T(VEC3D, TK_VEC, DOUBLE, 3, 1, "vec3d", "vec3d", "")
T(VEC4D, TK_VEC, DOUBLE, 4, 1, "vec4d", "vec4d", "")
T(SVECD, TK_VEC, DOUBLE, 6, 1, "spatial_vectord", "spatial_vectord", "")

/* integer vectors */
T(VEC2B, TK_VEC, INT8, 2, 1, "vec2b", "vec2b", "")
T(VEC3B, TK_VEC, INT8, 3, 1, "vec3b", "vec3b", "")
T(VEC4B, TK_VEC, INT8, 4, 1, "vec4b", "vec4b", "")
T(VEC2UB, TK_VEC, UINT8, 2, 1, "vec2ub", "vec2ub", "")
T(VEC3UB, TK_VEC, UINT8, 3, 1, "vec3ub", "vec3ub", "")
T(VEC4UB, TK_VEC, UINT8, 4, 1, "vec4ub", "vec4ub", "")
T(VEC2S, TK_VEC, INT16, 2, 1, "vec2s", "vec2s", "")
T(VEC3S, TK_VEC, INT16, 3, 1, "vec3s", "vec3s", "")
T(VEC4S, TK_VEC, INT16, 4, 1, "vec4s", "vec4s", "")
T(VEC2US, TK_VEC, UINT16, 2, 1, "vec2us", "vec2us", "")
T(VEC3US, TK_VEC, UINT16, 3, 1, "vec3us", "vec3us", "")
T(VEC4US, TK_VEC, UINT16, 4, 1, "vec4us", "vec4us", "")
T(VEC2I, TK_VEC, INT, 2, 1, "vec2i", "vec2i", "")
T(VEC3I, TK_VEC, INT, 3, 1, "vec3i", "vec3i", "")
T(VEC4I, TK_VEC, INT, 4, 1, "vec4i", "vec4i", "")
T(VEC2UI, TK_VEC, UINT32, 2, 1, "vec2ui", "vec2ui", "")
T(VEC3UI, TK_VEC, UINT32, 3, 1, "vec3ui", "vec3ui", "")
T(VEC4UI, TK_VEC, UINT32, 4, 1, "vec4ui", "vec4ui", "")
T(VEC2L, TK_VEC, INT64, 2, 1, "vec2l", "vec2l", "")
T(VEC3L, TK_VEC, INT64, 3, 1, "vec3l", "vec3l", "")
T(VEC4L, TK_VEC, INT64, 4, 1, "vec4l", "vec4l", "")
T(VEC2UL, TK_VEC, UINT64, 2, 1, "vec2ul", "vec2ul", "")
T(VEC3UL, TK_VEC, UINT64, 3, 1, "vec3ul", "vec3ul", "")
T(VEC4UL, TK_VEC, UINT64, 4, 1, "vec4ul", "vec4ul", "")

/* matrices, row-major */
T(MAT22, TK_MAT, FLOAT, 2, 2, "mat22", "mat22f", "mat22")
T(MAT33, TK_MAT, FLOAT, 3, 3, "mat33", "mat33f", "mat33")
T(MAT44, TK_MAT, FLOAT, 4, 4, "mat44", "mat44f", "mat44")
T(SMAT, TK_MAT, FLOAT, 6, 6, "spatial_matrix", "spatial_matrixf", "spatial_matrix")
T(MAT22H, TK_MAT, HALF, 2, 2, "mat22h", "mat22h", "")
T(MAT33H, TK_MAT, HALF, 3, 3, "mat33h", "mat33h", "")
T(MAT44H, TK_MAT, HALF, 4, 4, "mat44h", "mat44h", "")
T(SMATH, TK_MAT, HALF, 6, 6, "spatial_matrixh", "spatial_matrixh", "")
T(MAT22D, TK_MAT, DOUBLE, 2, 2, "mat22d", "mat22d", "")
T(MAT33D, TK_MAT, DOUBLE, 3, 3, "mat33d", "mat33d", "")
T(MAT44D, TK_MAT, DOUBLE, 4, 4, "mat44d", "mat44d", "")
T(SMATD, TK_MAT, DOUBLE, 6, 6, "spatial_matrixd", "spatial_matrixd", "")

/* quaternions (x, y, z, w) and transforms (p, q) */
T(QUAT, TK_QUAT, FLOAT, 4, 1, "quat", "quatf", "quat")
T(QUATH, TK_QUAT, HALF, 4, 1, "quath", "quath", "")
T(QUATD, TK_QUAT, DOUBLE, 4, 1, "quatd", "quatd", "")
T(XFORM, TK_XFORM, FLOAT, 7, 1, "transform", "transformf", "transform")
T(XFORMH, TK_XFORM, HALF, 7, 1, "transformh", "transformh", "")
T(XFORMD, TK_XFORM, DOUBLE, 7, 1, "transformd", "transformd", "")
/* clang-format on */
