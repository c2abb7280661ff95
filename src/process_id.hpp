// This process's id, for names that concurrent processes must not share.
#pragma once

namespace sculptflow::detail {

unsigned long processId();

} // namespace sculptflow::detail
