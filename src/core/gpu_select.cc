#include "core/gpu_select.h"

#include <vector>

#include "core/text.h"

namespace ptxbench {

std::string visible_device_for(int index, const char* parent_visible) {
  if (parent_visible && *parent_visible) {
    std::vector<std::string> ids = split(parent_visible, ',');
    if (index >= 0 && static_cast<std::size_t>(index) < ids.size())
      return std::string(trim(ids[index]));
    return "-1";  // hides every GPU: never one the parent was not given
  }
  return std::to_string(index);
}

}  // namespace ptxbench
