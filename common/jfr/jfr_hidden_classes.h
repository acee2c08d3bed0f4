// The names of hidden classes without what changes from run to run: the JVM names a lambda's
// class `App$$Lambda$94+0x00007f602c007c28/1908981452` (JDK 17) or `App$$Lambda/0x...` (JDK 21)
// and other hidden classes `java/lang/invoke/LambdaForm$MH/0x0000000800c0a000`, so that the same
// frame of two runs has two names and --diff-base never matches it.
#ifndef PROFTOOLS_COMMON_JFR_JFR_HIDDEN_CLASSES_H_
#define PROFTOOLS_COMMON_JFR_JFR_HIDDEN_CLASSES_H_

#include <string>

namespace proftools {

// `jvm_name` (slashes between packages) without a hidden class's suffix (a slash and a number,
// decimal or 0x hex, at the end) and without a lambda class's counter and address after
// `$$Lambda` ($94+0x00007f602c007c28): App$$Lambda, java/lang/invoke/LambdaForm$MH. Other
// names are returned as they are.
std::string WithoutHiddenClassIds(std::string jvm_name);

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_JFR_JFR_HIDDEN_CLASSES_H_
