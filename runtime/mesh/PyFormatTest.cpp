//===- PyFormatTest.cpp - numpy/Python renderings used in error texts -----===//
//
// Expected strings are numpy 2.x `str(np.asarray(v, dtype=np.int32))` and
// Python str()/repr() outputs.
//
//===----------------------------------------------------------------------===//
#include "runtime/mesh/PyFormat.h"

#include <algorithm>
#include <numeric>
#include <vector>

#include "gtest/gtest.h"

namespace torus::rt {
namespace {

std::vector<int64_t> range(int64_t begin, int64_t end) {
  std::vector<int64_t> v(end - begin);
  std::iota(v.begin(), v.end(), begin);
  return v;
}

TEST(PyFormatTest, NumpyArrayPadsToTheWidestEntry) {
  EXPECT_EQ(formatNumpyArray(std::vector<int64_t>{1, 1, 2, 1}), "[1 1 2 1]");
  EXPECT_EQ(formatNumpyArray(std::vector<int64_t>{2, -1, 1, 2}),
            "[ 2 -1  1  2]");
  EXPECT_EQ(formatNumpyArray(std::vector<int64_t>{}), "[]");
  EXPECT_EQ(formatNumpyArray(std::vector<int64_t>{7}), "[7]");
}

TEST(PyFormatTest, NumpyArrayWrapsAt75Columns) {
  EXPECT_EQ(formatNumpyArray(range(0, 40)),
            "[ 0  1  2  3  4  5  6  7  8  9 10 11 12 13 14 15 16 17 18 19 20 "
            "21 22 23\n 24 25 26 27 28 29 30 31 32 33 34 35 36 37 38 39]");
  EXPECT_EQ(formatNumpyArray(range(-5, 30)),
            "[-5 -4 -3 -2 -1  0  1  2  3  4  5  6  7  8  9 10 11 12 13 14 15 "
            "16 17 18\n 19 20 21 22 23 24 25 26 27 28 29]");
  EXPECT_EQ(formatNumpyArray(range(100, 140)),
            "[100 101 102 103 104 105 106 107 108 109 110 111 112 113 114 115 "
            "116 117\n 118 119 120 121 122 123 124 125 126 127 128 129 130 "
            "131 132 133 134 135\n 136 137 138 139]");
  std::vector<int64_t> mixed;
  for (int i = 0; i < 30; ++i)
    mixed.insert(mixed.end(), {-100, 5, 3});
  EXPECT_EQ(formatNumpyArray(mixed),
            "[-100    5    3 -100    5    3 -100    5    3 -100    5    3 "
            "-100    5\n    3 -100    5    3 -100    5    3 -100    5    3 "
            "-100    5    3 -100\n    5    3 -100    5    3 -100    5    3 "
            "-100    5    3 -100    5    3\n -100    5    3 -100    5    3 "
            "-100    5    3 -100    5    3 -100    5\n    3 -100    5    3 "
            "-100    5    3 -100    5    3 -100    5    3 -100\n    5    3 "
            "-100    5    3 -100    5    3 -100    5    3 -100    5    3\n "
            "-100    5    3 -100    5    3]");
}

TEST(PyFormatTest, NumpyArraySummarisesBeyondAThousandEntries) {
  EXPECT_EQ(formatNumpyArray(range(0, 1001)), "[   0    1    2 ...  998  999 1000]");
  EXPECT_EQ(formatNumpyArray(range(0, 1200)), "[   0    1    2 ... 1197 1198 1199]");
  std::string full = formatNumpyArray(range(0, 1000));
  EXPECT_EQ(full.find("..."), std::string::npos);
  EXPECT_EQ(std::count(full.begin(), full.end(), '\n'), 55);
}

TEST(PyFormatTest, TuplesListsAndRepr) {
  EXPECT_EQ(formatPyTuple(std::vector<int64_t>{3}), "(3,)");
  EXPECT_EQ(formatPyTuple(std::vector<int64_t>{}), "()");
  EXPECT_EQ(formatPyTuple(std::vector<int64_t>{2, 1, 4}), "(2, 1, 4)");
  EXPECT_EQ(formatPyList(std::vector<int64_t>{1, 2, 2, 1}), "[1, 2, 2, 1]");
  EXPECT_EQ(formatPyList(std::vector<int64_t>{}), "[]");
  EXPECT_EQ(formatPyRepr("worker"), "'worker'");
  EXPECT_EQ(formatPyRepr("it's"), "\"it's\"");
  EXPECT_EQ(formatPyRepr("a'b\"c"), "'a\\'b\"c'");
}

} // namespace
} // namespace torus::rt
