"""numpy side of the .npz cross-check in npz_test.cc.

Usage: npz_cross_check.py MODE PATH
  savez             write the expected arrays with np.savez
  savez_compressed  write them with np.savez_compressed
  savez_compressed_small  the same without the large array (for corruption tests)
  savez_streamed    write them to an unseekable stream (data descriptors, zip64 local extras)
  check             read PATH (written by C++) and compare with the expected arrays
  zip_contents      print "name size crc contents-in-hex" for every entry of the zip archive PATH

The expected arrays are spelled out again, by hand, in npz_test.cc (ExpectedArrays).
"""
import io
import sys
import zipfile

import numpy as np


def expected_arrays():
    return {
        "f32": np.array([[-1.0, -0.5, 0.0], [0.5, 1.0, 1.5]], dtype="<f4"),
        "f16": np.array([0.0, 0.25, -2.5, 65504.0], dtype="<f2"),
        "i8": np.array([-128, -1, 0, 1, 127], dtype="|i1"),
        "u8": np.array([0, 1, 128, 255], dtype="|u1"),
        "i32": np.array([-2147483648, 0, 2147483647], dtype="<i4"),
        "i64": np.array([-9223372036854775808, 0, 9223372036854775807, 1234567890123], dtype="<i8"),
        "bool": np.array([True, False, True], dtype="|b1"),
        "f64": np.array([1e300, -0.1, 0.0], dtype="<f8"),
        "i16": np.array([-32768, 0, 32767], dtype="<i2"),
        "u16": np.array([0, 65535], dtype="<u2"),
        "u32": np.array([0, 4294967295], dtype="<u4"),
        "u64": np.array([0, 18446744073709551615], dtype="<u8"),
        "scalar": np.array(3.5, dtype="<f4"),
        "empty": np.zeros((0, 3), dtype="<f4"),
        "odd_shape": np.arange(6, dtype="<i4").reshape(1, 1, 3, 1, 2),
        "large": (np.arange(300000, dtype="<i8") % 251).astype("<f4"),
    }


class UnseekableWriter(io.RawIOBase):
    """Makes zipfile write local headers before the data (data descriptors)."""

    def __init__(self, sink):
        self.sink = sink

    def writable(self):
        return True

    def write(self, data):
        return self.sink.write(data)


def savez_streamed(path, arrays):
    with open(path, "wb") as sink:
        with zipfile.ZipFile(UnseekableWriter(sink), "w") as archive:
            for name, array in arrays.items():
                with archive.open(name + ".npy", "w", force_zip64=True) as entry:
                    np.lib.format.write_array(entry, array)


def check(path, arrays):
    with np.load(path) as data:
        if list(data.files) != list(arrays):
            print(f"names differ: got {list(data.files)}, expected {list(arrays)}")
            return 1
        for name, want in arrays.items():
            got = data[name]
            if got.dtype != want.dtype or got.shape != want.shape or not np.array_equal(got, want):
                print(f"array {name}: got {got.dtype} {got.shape} {got!r}, expected {want.dtype} {want.shape} {want!r}")
                return 1
    print("ok")
    return 0


def zip_contents(path):
    with zipfile.ZipFile(path) as archive:
        if archive.testzip() is not None:
            print("corrupt entry", archive.testzip())
            return 1
        for info in archive.infolist():
            print(info.filename, info.file_size, info.CRC, archive.read(info.filename).hex())
    return 0


def main():
    mode, path = sys.argv[1], sys.argv[2]
    arrays = expected_arrays()
    if mode == "savez":
        np.savez(path, **arrays)
    elif mode == "savez_compressed":
        np.savez_compressed(path, **arrays)
    elif mode == "savez_compressed_small":
        del arrays["large"]
        np.savez_compressed(path, **arrays)
    elif mode == "savez_streamed":
        savez_streamed(path, arrays)
    elif mode == "check":
        return check(path, arrays)
    elif mode == "zip_contents":
        return zip_contents(path)
    else:
        print("unknown mode", mode)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
