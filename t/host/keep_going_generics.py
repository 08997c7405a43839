# --keep-going past a generic wp.func whose instance fails inside another
# instance being lowered (each caller meets the error, the state of the
# caller is restored), and a generic that compiles: its instances (one made
# for a kernel that then fails, kept for the next caller) and the kernel
# that calls them come out, the instances first, past a generic kernel
# with no overload.
from typing import Any

import warp as wp


@wp.func
def inner(a: Any):
    return a * undefined_name


@wp.func
def outer(a: Any):
    return inner(a) + 1.0


@wp.kernel
def k(x: wp.array(dtype=float)):
    x[0] = outer(x[0])


@wp.func
def fine(a: Any):
    return a * 2.0


@wp.kernel
def k2(x: wp.array(dtype=float)):
    x[0] = fine(x[0]) + outer(2.0)


@wp.kernel
def no_overload(x: wp.array(dtype=Any)):
    # generic, and no wp.overload: refused before its body is read, with
    # the module's names and the signatures above left as they were
    x[0] = x[0]


@wp.kernel
def long_body(x: wp.array(dtype=float)):
    # enough code to take the memory the refusal above would have given back
    x[0] = x[1] * 2.0 + wp.sin(x[2]) * fine(x[3])
    x[1] = x[2] * 2.0 + wp.sin(x[3]) * fine(x[4])
    x[2] = x[3] * 2.0 + wp.sin(x[4]) * fine(x[5])
    x[3] = x[4] * 2.0 + wp.sin(x[5]) * fine(x[6])
    x[4] = x[5] * 2.0 + wp.sin(x[6]) * fine(x[7])
    x[5] = x[6] * 2.0 + wp.sin(x[7]) * fine(x[8])
    x[6] = x[7] * 2.0 + wp.sin(x[8]) * fine(x[9])
    x[7] = x[8] * 2.0 + wp.sin(x[9]) * fine(x[10])
    x[8] = x[9] * 2.0 + wp.sin(x[10]) * fine(x[11])
    x[9] = x[10] * 2.0 + wp.sin(x[11]) * fine(x[12])
    x[10] = x[11] * 2.0 + wp.sin(x[12]) * fine(x[13])
    x[11] = x[12] * 2.0 + wp.sin(x[13]) * fine(x[14])
    x[12] = x[13] * 2.0 + wp.sin(x[14]) * fine(x[15])
    x[13] = x[14] * 2.0 + wp.sin(x[15]) * fine(x[16])
    x[14] = x[15] * 2.0 + wp.sin(x[16]) * fine(x[17])
    x[15] = x[16] * 2.0 + wp.sin(x[17]) * fine(x[18])
    x[16] = x[17] * 2.0 + wp.sin(x[18]) * fine(x[19])
    x[17] = x[18] * 2.0 + wp.sin(x[19]) * fine(x[20])
    x[18] = x[19] * 2.0 + wp.sin(x[20]) * fine(x[21])
    x[19] = x[20] * 2.0 + wp.sin(x[21]) * fine(x[22])
    x[20] = x[21] * 2.0 + wp.sin(x[22]) * fine(x[23])
    x[21] = x[22] * 2.0 + wp.sin(x[23]) * fine(x[24])
    x[22] = x[23] * 2.0 + wp.sin(x[24]) * fine(x[25])
    x[23] = x[24] * 2.0 + wp.sin(x[25]) * fine(x[26])
    x[24] = x[25] * 2.0 + wp.sin(x[26]) * fine(x[27])
    x[25] = x[26] * 2.0 + wp.sin(x[27]) * fine(x[28])
    x[26] = x[27] * 2.0 + wp.sin(x[28]) * fine(x[29])
    x[27] = x[28] * 2.0 + wp.sin(x[29]) * fine(x[30])
    x[28] = x[29] * 2.0 + wp.sin(x[30]) * fine(x[31])
    x[29] = x[30] * 2.0 + wp.sin(x[31]) * fine(x[32])
    x[30] = x[31] * 2.0 + wp.sin(x[32]) * fine(x[33])
    x[31] = x[32] * 2.0 + wp.sin(x[33]) * fine(x[34])
    x[32] = x[33] * 2.0 + wp.sin(x[34]) * fine(x[35])
    x[33] = x[34] * 2.0 + wp.sin(x[35]) * fine(x[36])
    x[34] = x[35] * 2.0 + wp.sin(x[36]) * fine(x[37])
    x[35] = x[36] * 2.0 + wp.sin(x[37]) * fine(x[38])
    x[36] = x[37] * 2.0 + wp.sin(x[38]) * fine(x[39])
    x[37] = x[38] * 2.0 + wp.sin(x[39]) * fine(x[40])
    x[38] = x[39] * 2.0 + wp.sin(x[40]) * fine(x[41])
    x[39] = x[40] * 2.0 + wp.sin(x[41]) * fine(x[42])
    x[40] = x[41] * 2.0 + wp.sin(x[42]) * fine(x[43])
    x[41] = x[42] * 2.0 + wp.sin(x[43]) * fine(x[44])
    x[42] = x[43] * 2.0 + wp.sin(x[44]) * fine(x[45])
    x[43] = x[44] * 2.0 + wp.sin(x[45]) * fine(x[46])
    x[44] = x[45] * 2.0 + wp.sin(x[46]) * fine(x[47])
    x[45] = x[46] * 2.0 + wp.sin(x[47]) * fine(x[48])
    x[46] = x[47] * 2.0 + wp.sin(x[48]) * fine(x[49])
    x[47] = x[48] * 2.0 + wp.sin(x[49]) * fine(x[50])
    x[48] = x[49] * 2.0 + wp.sin(x[50]) * fine(x[51])
    x[49] = x[50] * 2.0 + wp.sin(x[51]) * fine(x[52])
    x[50] = x[51] * 2.0 + wp.sin(x[52]) * fine(x[53])
    x[51] = x[52] * 2.0 + wp.sin(x[53]) * fine(x[54])
    x[52] = x[53] * 2.0 + wp.sin(x[54]) * fine(x[55])
    x[53] = x[54] * 2.0 + wp.sin(x[55]) * fine(x[56])
    x[54] = x[55] * 2.0 + wp.sin(x[56]) * fine(x[57])
    x[55] = x[56] * 2.0 + wp.sin(x[57]) * fine(x[58])
    x[56] = x[57] * 2.0 + wp.sin(x[58]) * fine(x[59])
    x[57] = x[58] * 2.0 + wp.sin(x[59]) * fine(x[60])
    x[58] = x[59] * 2.0 + wp.sin(x[60]) * fine(x[61])
    x[59] = x[60] * 2.0 + wp.sin(x[61]) * fine(x[62])


@wp.kernel
def k3(x: wp.array(dtype=float), v: wp.array(dtype=wp.vec3)):
    x[0] = fine(x[0])
    v[0] = fine(v[0])
