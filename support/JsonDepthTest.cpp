//===- JsonDepthTest.cpp - Tests for the JSON nesting limit ---------------===//

#include "support/JsonDepth.h"

#include <gtest/gtest.h>

#include <string>

namespace torus {
namespace {

std::string nested(int depth, char open = '[', char close = ']') {
  return std::string(depth, open) + std::string(depth, close);
}

TEST(JsonDepthTest, AcceptsUpToTheLimit) {
  EXPECT_FALSE(jsonTooDeep(nested(kMaxJsonDepth)));
  EXPECT_FALSE(jsonTooDeep(R"({"a": [1, {"b": [2]}], "c": "x"})"));
  EXPECT_FALSE(jsonTooDeep(""));
}

TEST(JsonDepthTest, FindsTheFirstBracketTooDeep) {
  EXPECT_EQ(jsonTooDeep(nested(kMaxJsonDepth + 1)), size_t(kMaxJsonDepth));
  EXPECT_EQ(jsonTooDeep(nested(40000)), size_t(kMaxJsonDepth));
  EXPECT_EQ(jsonTooDeep(R"({"a": {"b": [1]}})", 2), size_t(12));
  // Objects count like arrays, and closing brackets give levels back.
  EXPECT_FALSE(jsonTooDeep("[[]] [[]] {{}}", 2));
  EXPECT_EQ(jsonTooDeep("[[]] [[[]]]", 2), size_t(7));
}

TEST(JsonDepthTest, BracketsInStringsDoNotCount) {
  std::string inString = "[\"" + std::string(100, '[') + "\\\"[[[\"]";
  EXPECT_FALSE(jsonTooDeep(inString, 1));
}

TEST(JsonDepthTest, PositionsAreLineAndColumn) {
  EXPECT_EQ(textPosition("ab\ncd", 0), "1:1");
  EXPECT_EQ(textPosition("ab\ncd", 4), "2:2");
  EXPECT_EQ(textPosition("ab", 10), "1:3");
}

} // namespace
} // namespace torus
