"""ctypes declarations of libarnswitch (cmodel/asw_switch.h, cmodel/asw_table.h).

The structures mirror the C ones field by field; test-lib checks the binding
against the C example program bit for bit, so a layout slip shows there.
"""
import ctypes
import ctypes.util
import os

_HERE = os.path.dirname(os.path.abspath(__file__))


class AswConfig(ctypes.Structure):
    _fields_ = [(n, ctypes.c_uint) for n in (
        "ports", "vcs", "buf_flits", "max_packet", "payload_bits", "dest_bits",
        "table_entries", "voq", "iters", "arn_entries", "sar_entries",
        # contract §1 optional features: 1 built, 0 left out (the default)
        "bubble", "pfc", "qcn", "route_hash", "link_faults", "port_rate", "vc_adaptive",
        "oblivious", "adaptive", "counters", "readback",
        # SAPIPE: 0 iSLIP, 1 pipelined allocation (contract §8.1)
        "sa_pipe")]


class AswFlit(ctypes.Structure):
    _fields_ = [("valid", ctypes.c_uint8), ("head", ctypes.c_uint8),
                ("tail", ctypes.c_uint8), ("vc", ctypes.c_uint8),
                ("hdr", ctypes.c_uint64), ("payload", ctypes.c_uint64)]


class AswInputs(ctypes.Structure):
    _fields_ = [("flit_mask", ctypes.c_uint64), ("flit", ctypes.POINTER(AswFlit)),
                ("credit_mask", ctypes.c_uint64),
                ("credit_vc", ctypes.POINTER(ctypes.c_uint8)),
                ("arn_mask", ctypes.c_uint64), ("arn", ctypes.POINTER(ctypes.c_uint32)),
                ("reg_en", ctypes.c_uint8), ("reg_we", ctypes.c_uint8),
                ("reg_addr", ctypes.c_uint32), ("reg_wdata", ctypes.c_uint32),
                ("cnm_mask", ctypes.c_uint64), ("cnm", ctypes.POINTER(ctypes.c_uint64))]


class AswOutputs(ctypes.Structure):
    _fields_ = [("flit_mask", ctypes.c_uint64), ("flit", ctypes.POINTER(AswFlit)),
                ("credit_mask", ctypes.c_uint64),
                ("credit_vc", ctypes.POINTER(ctypes.c_uint8)),
                ("arn_mask", ctypes.c_uint64), ("arn", ctypes.POINTER(ctypes.c_uint32)),
                ("reg_rvalid", ctypes.c_uint8), ("reg_rdata", ctypes.c_uint32),
                ("cnm_mask", ctypes.c_uint64), ("cnm", ctypes.POINTER(ctypes.c_uint64))]


def _candidates():
    env = os.environ.get("ARNSWITCH_LIB")
    if env:
        return [env]
    return [
        # installed: PREFIX/share/arnswitch/python/arnswitch -> PREFIX/lib
        os.path.join(_HERE, "..", "..", "..", "..", "lib", "libarnswitch.so"),
        # repository: sw/arnswitch -> build/lib (make lib)
        os.path.join(_HERE, "..", "..", "build", "lib", "libarnswitch.so"),
        ctypes.util.find_library("arnswitch"),
    ]


def load():
    tried = []
    for path in _candidates():
        if not path:
            continue
        tried.append(path)
        if os.sep in path and not os.path.exists(path):
            continue
        lib = ctypes.CDLL(path)
        _declare(lib)
        return lib, os.path.normpath(path)
    raise OSError("libarnswitch not found (tried %s); build it with `make lib`, install it "
                  "with `make install`, or set ARNSWITCH_LIB" % ", ".join(tried))


def _declare(lib):
    P, c = ctypes.POINTER, ctypes
    sig = {
        "asw_config_default": (None, [P(AswConfig)]),
        "asw_config_check": (c.c_int, [P(AswConfig), c.c_char_p, c.c_size_t]),
        "asw_switch_new": (c.c_void_p, [P(AswConfig), c.c_char_p, c.c_size_t]),
        "asw_switch_free": (None, [c.c_void_p]),
        "asw_switch_reset": (None, [c.c_void_p]),
        "asw_switch_step": (c.c_int, [c.c_void_p, P(AswInputs), P(AswOutputs)]),
        "asw_switch_idle": (c.c_int, [c.c_void_p]),
        "asw_reg_write": (c.c_int, [c.c_void_p, c.c_uint32, c.c_uint32]),
        "asw_reg_read": (c.c_int, [c.c_void_p, c.c_uint32, P(c.c_uint32)]),
        "asw_switch_error": (c.c_char_p, [c.c_void_p]),
        "asw_table_apply": (c.c_int, [c.c_void_p, c.c_char_p, c.c_char_p, c.c_char_p,
                                      c.c_size_t]),
        "asw_table_load": (c.c_int, [c.c_void_p, c.c_char_p, c.c_char_p, c.c_size_t]),
    }
    for name, (res, args) in sig.items():
        f = getattr(lib, name)
        f.restype = res
        f.argtypes = args
