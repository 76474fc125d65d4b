// Plots as inline SVG for the HTML report (report/html.h): line charts (turn-budget
// curves), grouped bar charts (speedup per task against the library line) and stacked bar
// charts (categories per turn). Plain generated markup: no script, no external font or
// image, every text escaped (markup.h); the system's sans-serif font renders it.
// Every axis has a label with its unit; every series is in the legend.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace ptxbench::report::svg {

// How tick values are written: 4 | 50% | 1.25x
enum class TickStyle { plain, percent, times };

struct Axis {
  std::string label;  // with its unit, e.g. "turn budget T (turns)"
  double lo = 0, hi = 1;
  std::vector<double> ticks;
  TickStyle style = TickStyle::plain;
};

struct Series {
  std::string name;
  std::vector<std::pair<double, double>> points;  // (x, y), drawn in order
  int color = 0;                                  // index into the palette
  bool dashed = false;
};

// A horizontal reference line, e.g. the library at 1.0x.
struct Reference {
  double y = 1;
  std::string label;
};

struct LineChart {
  std::string title;
  Axis x, y;
  std::vector<Series> series;
  std::optional<Reference> reference;
};

struct BarGroup {
  std::string label;                          // under the group, e.g. the task
  std::vector<std::optional<double>> values;  // one per series; nullopt: no bar ("n/a")
};

struct BarChart {
  std::string title;
  Axis y;
  std::vector<std::string> series;  // legend names, palette colors 0, 1, ...
  std::vector<BarGroup> groups;
  std::optional<Reference> reference;
};

struct StackedBar {
  std::string label;
  std::vector<double> parts;  // one per StackedBarChart::parts, stacked bottom to top
};

struct StackedBarChart {
  std::string title;
  std::string x_label;
  Axis y;
  std::vector<std::pair<std::string, std::string>> parts;  // (legend name, CSS color)
  std::vector<StackedBar> bars;
};

// The palette (Okabe-Ito, distinguishable with color-vision deficiency), by index mod its size.
std::string color(int index);

// Each an <svg> element of the given size in CSS pixels, with role="img" and a <title>.
std::string render(const LineChart& c, int width, int height);
std::string render(const BarChart& c, int width, int height);
std::string render(const StackedBarChart& c, int width, int height);

// A tick value as written on an axis.
std::string tick_text(double v, TickStyle style);

}  // namespace ptxbench::report::svg
