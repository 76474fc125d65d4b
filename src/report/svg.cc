#include "report/svg.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>

#include "report/markup.h"

namespace ptxbench::report::svg {
namespace {

constexpr double kLegendRow = 18;
constexpr const char* kFont = "font-family=\"DejaVu Sans, Liberation Sans, Arial, sans-serif\"";

// The legend, below the plot: entries flow left to right and wrap into rows.
struct LegendEntry {
  std::string name, color;
  bool dashed = false, box = false;
};
double entry_width(const LegendEntry& e) {
  return 34 + 6.4 * static_cast<double>(e.name.size());
}
int legend_rows(const std::vector<LegendEntry>& entries, double width) {
  int rows = entries.empty() ? 0 : 1;
  double x = 0;
  for (const auto& e : entries) {
    if (x > 0 && x + entry_width(e) > width) ++rows, x = 0;
    x += entry_width(e);
  }
  return rows;
}

// The plot area inside a chart of width x height, and the value-to-pixel maps.
struct Frame {
  double left = 70, top = 40, right = 0, bottom = 0;
  double width = 0, height = 0;
  double legend_top = 0;
  Frame(int w, int h, int rows, double bottom_margin) {
    right = w - 16.0;
    legend_top = h - rows * kLegendRow - 4;
    bottom = legend_top - bottom_margin;
    width = right - left;
    height = bottom - top;
  }
  static double unit(double v, const Axis& a) {
    if (a.hi <= a.lo) return 0;
    return std::clamp((v - a.lo) / (a.hi - a.lo), 0.0, 1.0);
  }
  double px(double v, const Axis& a) const { return left + unit(v, a) * width; }
  double py(double v, const Axis& a) const { return bottom - unit(v, a) * height; }
};

std::string num(double v) {
  return fmt::format("{:.1f}", v);
}

std::string open(int w, int h, const std::string& title) {
  return fmt::format(
      "<svg class=\"plot\" width=\"{0}\" height=\"{1}\" viewBox=\"0 0 {0} {1}\" role=\"img\" "
      "aria-label=\"{2}\" {3}><title>{2}</title>\n"
      "<rect x=\"0\" y=\"0\" width=\"{0}\" height=\"{1}\" fill=\"#ffffff\"/>\n"
      "<text x=\"12\" y=\"22\" font-size=\"15\" font-weight=\"bold\" fill=\"#222\">{2}</text>\n",
      w, h, escape_markup(title), kFont);
}

std::string text(double x, double y, const std::string& s, const char* anchor, int size = 12,
                 const char* fill = "#333") {
  return fmt::format(
      "<text x=\"{}\" y=\"{}\" font-size=\"{}\" text-anchor=\"{}\" fill=\"{}\">{}</text>\n", num(x),
      num(y), size, anchor, fill, escape_markup(s));
}

// Horizontal grid lines with the y ticks, the y axis and its label (rotated).
std::string y_axis(const Frame& f, const Axis& a) {
  std::string s;
  for (double t : a.ticks) {
    const double y = f.py(t, a);
    s += fmt::format("<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"#e3e3e3\"/>\n",
                     num(f.left), num(y), num(f.right), num(y));
    s += text(f.left - 6, y + 4, tick_text(t, a.style), "end");
  }
  s += fmt::format("<line x1=\"{0}\" y1=\"{1}\" x2=\"{0}\" y2=\"{2}\" stroke=\"#555\"/>\n",
                   num(f.left), num(f.top), num(f.bottom));
  const double mid = (f.top + f.bottom) / 2;
  s += fmt::format(
      "<text x=\"16\" y=\"{0}\" font-size=\"12\" text-anchor=\"middle\" fill=\"#333\" "
      "transform=\"rotate(-90 16 {0})\">{1}</text>\n",
      num(mid), escape_markup(a.label));
  return s;
}

std::string x_baseline(const Frame& f) {
  return fmt::format("<line x1=\"{0}\" y1=\"{1}\" x2=\"{2}\" y2=\"{1}\" stroke=\"#555\"/>\n",
                     num(f.left), num(f.bottom), num(f.right));
}

std::string x_label(const Frame& f, const std::string& label, double below = 40) {
  return text((f.left + f.right) / 2, f.bottom + below, label, "middle");
}

// Drawn over the bars; its label is in the legend.
std::string reference_line(const Frame& f, const Axis& a, const Reference& r) {
  const double y = f.py(r.y, a);
  return fmt::format(
      "<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"#000\" stroke-width=\"1.5\" "
      "stroke-dasharray=\"6 4\"><title>{}</title></line>\n",
      num(f.left), num(y), num(f.right), num(y), escape_markup(r.label));
}

std::string legend(const Frame& f, const std::vector<LegendEntry>& entries) {
  std::string s;
  double x = f.left, y = f.legend_top + 13;
  for (const auto& e : entries) {
    if (x > f.left && x + entry_width(e) > f.right) x = f.left, y += kLegendRow;
    if (e.box)
      s += fmt::format("<rect x=\"{}\" y=\"{}\" width=\"14\" height=\"12\" fill=\"{}\"/>\n",
                       num(x + 4), num(y - 10), e.color);
    else
      s += fmt::format(
          "<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"{}\" stroke-width=\"2.5\"{}/>\n",
          num(x), num(y - 4), num(x + 22), num(y - 4), e.color,
          e.dashed ? " stroke-dasharray=\"5 3\"" : "");
    s += text(x + 27, y, e.name, "start", 11);
    x += entry_width(e);
  }
  return s;
}

std::string marker(double x, double y, const std::string& color, bool square) {
  if (square)
    return fmt::format("<rect x=\"{}\" y=\"{}\" width=\"7\" height=\"7\" fill=\"{}\"/>\n",
                       num(x - 3.5), num(y - 3.5), color);
  return fmt::format("<circle cx=\"{}\" cy=\"{}\" r=\"3.5\" fill=\"{}\"/>\n", num(x), num(y),
                     color);
}

}  // namespace

std::string color(int index) {
  static const std::array<const char*, 7> kPalette = {"#0072B2", "#D55E00", "#009E73", "#CC79A7",
                                                      "#E69F00", "#56B4E9", "#000000"};
  return kPalette[static_cast<std::size_t>(std::abs(index)) % kPalette.size()];
}

std::string tick_text(double v, TickStyle style) {
  switch (style) {
    case TickStyle::percent:
      return fmt::format("{:.0f}%", v * 100);
    case TickStyle::times:
      return fmt::format("{:g}\u00d7", std::round(v * 100) / 100);
    case TickStyle::plain:
      break;
  }
  return fmt::format("{:g}", v);
}

std::string render(const LineChart& c, int width, int height) {
  std::vector<LegendEntry> entries;
  for (const auto& series : c.series)
    entries.push_back({series.name, color(series.color), series.dashed, false});
  if (c.reference) entries.push_back({c.reference->label, "#000", true, false});
  const Frame f(width, height, legend_rows(entries, width - 86.0), 50);
  std::string s = open(width, height, c.title) + y_axis(f, c.y) + x_baseline(f);
  for (double t : c.x.ticks)
    s += text(f.px(t, c.x), f.bottom + 18, tick_text(t, c.x.style), "middle");
  s += x_label(f, c.x.label, 38);
  if (c.reference) s += reference_line(f, c.y, *c.reference);
  // Earlier series are drawn wider, so a later one that coincides with them leaves them visible.
  const std::size_t n = c.series.size();
  for (std::size_t i = 0; i < n; ++i) {
    const auto& series = c.series[i];
    const std::string col = color(series.color);
    const double stroke = 2.5 + 3.0 * static_cast<double>(n - 1 - i) / std::max<double>(1, n - 1);
    std::string pts;
    for (const auto& [x, y] : series.points)
      pts += fmt::format("{},{} ", num(f.px(x, c.x)), num(f.py(y, c.y)));
    s += fmt::format(
        "<polyline points=\"{}\" fill=\"none\" stroke=\"{}\" stroke-width=\"{}\" "
        "stroke-linejoin=\"round\"{}><title>{}</title></polyline>\n",
        pts, col, num(stroke), series.dashed ? " stroke-dasharray=\"7 5\"" : "",
        escape_markup(series.name));
    for (const auto& [x, y] : series.points)
      s += marker(f.px(x, c.x), f.py(y, c.y), col, series.dashed);
  }
  return s + legend(f, entries) + "</svg>\n";
}

// A bar's value as written above it: speedups with three decimals (0.999x, 1.007x).
static std::string value_text(double v, TickStyle style) {
  if (style == TickStyle::times) return fmt::format("{:.3f}\u00d7", v);
  return tick_text(v, style);
}

std::string render(const BarChart& c, int width, int height) {
  std::vector<LegendEntry> entries;
  for (std::size_t i = 0; i < c.series.size(); ++i)
    entries.push_back({c.series[i], color(static_cast<int>(i)), false, true});
  if (c.reference) entries.push_back({c.reference->label, "#000", true, false});
  // Group labels that do not fit under their group are turned.
  const double plot_w = width - 86.0;
  const double group_w = c.groups.empty() ? 0 : plot_w / static_cast<double>(c.groups.size());
  std::size_t longest = 0;
  for (const auto& g : c.groups) longest = std::max(longest, g.label.size());
  const bool turned = 6.2 * static_cast<double>(longest) > group_w * 0.95;
  const double label_drop = turned ? 6.2 * static_cast<double>(longest) * 0.5 + 12 : 0;
  const Frame f(width, height, legend_rows(entries, plot_w), 44 + label_drop);
  std::string s = open(width, height, c.title) + y_axis(f, c.y) + x_baseline(f);
  const double bar_w = c.series.empty() ? 0 : group_w * 0.8 / static_cast<double>(c.series.size());
  for (std::size_t g = 0; g < c.groups.size(); ++g) {
    const double x0 = f.left + group_w * static_cast<double>(g) + group_w * 0.1;
    const auto& group = c.groups[g];
    for (std::size_t i = 0; i < group.values.size() && i < c.series.size(); ++i) {
      const double x = x0 + bar_w * static_cast<double>(i);
      const double cx = x + bar_w / 2;
      if (!group.values[i]) {
        s += text(cx, f.bottom - 4, "n/a", "middle", 10, "#777");
        continue;
      }
      const double y = f.py(*group.values[i], c.y);
      const std::string value = value_text(*group.values[i], c.y.style);
      s += fmt::format(
          "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{}\"><title>{}: {}</title>"
          "</rect>\n",
          num(x + 1), num(y), num(std::max(1.0, bar_w - 2)), num(f.bottom - y),
          color(static_cast<int>(i)), escape_markup(c.series[i]), value);
      // The value inside the bar's top where it fits (clear of a reference line above it).
      if (f.bottom - y > 24 && bar_w >= 44)
        s += text(cx, y + 15, value, "middle", 10, "#fff");
      else
        s += text(cx, y - 4, value, "middle", 9);
    }
    const double lx = x0 + group_w * 0.4, ly = f.bottom + 16;
    if (turned)
      s += fmt::format(
          "<text x=\"{0}\" y=\"{1}\" font-size=\"11\" text-anchor=\"end\" fill=\"#333\" "
          "transform=\"rotate(-30 {0} {1})\">{2}</text>\n",
          num(lx), num(ly), escape_markup(group.label));
    else
      s += text(lx, ly, group.label, "middle", 11);
  }
  s += x_label(f, "task", 32 + label_drop);
  if (c.reference) s += reference_line(f, c.y, *c.reference);
  return s + legend(f, entries) + "</svg>\n";
}

std::string render(const StackedBarChart& c, int width, int height) {
  std::vector<LegendEntry> entries;
  for (const auto& [name, col] : c.parts) entries.push_back({name, col, false, true});
  const Frame f(width, height, legend_rows(entries, width - 86.0), 50);
  std::string s = open(width, height, c.title) + y_axis(f, c.y) + x_baseline(f);
  const double slot = c.bars.empty() ? 0 : f.width / static_cast<double>(c.bars.size());
  for (std::size_t b = 0; b < c.bars.size(); ++b) {
    const double x = f.left + slot * static_cast<double>(b) + slot * 0.2;
    double base = 0;
    for (std::size_t i = 0; i < c.bars[b].parts.size() && i < c.parts.size(); ++i) {
      const double v = c.bars[b].parts[i];
      if (v <= 0) continue;
      const double y1 = f.py(base, c.y), y2 = f.py(base + v, c.y);
      s += fmt::format(
          "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{}\" stroke=\"#fff\">"
          "<title>{}: {:g}</title></rect>\n",
          num(x), num(y2), num(slot * 0.6), num(y1 - y2), c.parts[i].second,
          escape_markup(c.parts[i].first), v);
      base += v;
    }
    s += text(x + slot * 0.3, f.bottom + 18, c.bars[b].label, "middle", 11);
  }
  s += x_label(f, c.x_label, 38);
  return s + legend(f, entries) + "</svg>\n";
}

}  // namespace ptxbench::report::svg
