#include "report/svg.h"

#include <gtest/gtest.h>

namespace ptxbench::report::svg {
namespace {

int count(const std::string& s, const std::string& what) {
  int n = 0;
  for (auto p = s.find(what); p != std::string::npos; p = s.find(what, p + 1)) ++n;
  return n;
}

TEST(Svg, TickText) {
  EXPECT_EQ(tick_text(0.5, TickStyle::percent), "50%");
  EXPECT_EQ(tick_text(1.25, TickStyle::times), "1.25\u00d7");
  EXPECT_EQ(tick_text(4, TickStyle::plain), "4");
}

TEST(Svg, LineChartHasAxesLabelsLegendAndOnePolylinePerSeries) {
  LineChart c;
  c.title = "curves <1>";
  c.x = {"turn budget T (turns)", 1, 8, {1, 4, 8}, TickStyle::plain};
  c.y = {"trajectories (%)", 0, 1, {0, 0.5, 1}, TickStyle::percent};
  c.series = {{"a", {{1, 0}, {8, 1}}, 0, false}, {"b", {{1, 0.5}, {8, 0.5}}, 1, true}};
  const std::string s = render(c, 500, 300);
  EXPECT_EQ(s.rfind("<svg", 0), 0u);
  EXPECT_EQ(count(s, "<polyline"), 2);
  EXPECT_NE(s.find("turn budget T (turns)"), std::string::npos);
  EXPECT_NE(s.find("trajectories (%)"), std::string::npos);
  EXPECT_NE(s.find("curves &lt;1&gt;"), std::string::npos);
  EXPECT_EQ(s.find("curves <1>"), std::string::npos);
  EXPECT_NE(s.find("50%"), std::string::npos);
  EXPECT_NE(s.find("stroke-dasharray"), std::string::npos);  // the dashed series
  EXPECT_EQ(s.find("http"), std::string::npos);              // no namespace or link to fetch
}

TEST(Svg, ValuesOutsideTheAxisAreClampedToThePlot) {
  LineChart c;
  c.x = {"x", 0, 1, {0, 1}, TickStyle::plain};
  c.y = {"y", 0, 1, {0, 1}, TickStyle::plain};
  c.series = {{"a", {{0, -5}, {1, 50}}, 0, false}};
  const std::string s = render(c, 400, 300);
  EXPECT_EQ(s.find("points=\"70.0,-"), std::string::npos);
  EXPECT_NE(s.find("points=\"70.0,228.0 "), std::string::npos) << s;
}

TEST(Svg, BarChartDrawsABarPerValueAndMarksMissingOnes) {
  BarChart c;
  c.title = "speedup";
  c.y = {"speedup (\u00d7)", 0, 2, {0, 1, 2}, TickStyle::times};
  c.series = {"m1", "m2"};
  c.groups = {{"gemm", {1.5, std::nullopt}}, {"mha", {0.5, 1.0}}};
  c.reference = Reference{1.0, "library = 1\u00d7"};
  const std::string s = render(c, 600, 300);
  EXPECT_EQ(count(s, "<rect x=") - count(s, "<rect x=\"0\"") - 2 /* legend boxes */, 3);
  EXPECT_EQ(count(s, ">n/a<"), 1);
  EXPECT_NE(s.find("library = 1\u00d7"), std::string::npos);
  EXPECT_NE(s.find(">1.500\u00d7<"), std::string::npos);
}

TEST(Svg, StackedBarsStackTheirParts) {
  StackedBarChart c;
  c.title = "verdicts";
  c.x_label = "turn";
  c.y = {"trajectories (count)", 0, 4, {0, 2, 4}, TickStyle::plain};
  c.parts = {{"passed", "#009E73"}, {"incorrect", "#CC79A7"}};
  c.bars = {{"1", {1, 3}}, {"2", {4, 0}}};
  const std::string s = render(c, 400, 300);
  EXPECT_EQ(count(s, "<title>passed:"), 2);
  EXPECT_EQ(count(s, "<title>incorrect:"), 1);  // a zero part draws nothing
}

}  // namespace
}  // namespace ptxbench::report::svg
