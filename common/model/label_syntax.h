// Label tokens of the prof text format (formats/prof-text.md §4.3.5): `KEY=VALUE`, where the
// value is a string or a number with an optional unit. Built on the lexical layer
// (common/base/text_syntax.h), decoding into the model's Label.
#ifndef PROFTOOLS_COMMON_MODEL_LABEL_SYNTAX_H_
#define PROFTOOLS_COMMON_MODEL_LABEL_SYNTAX_H_

#include <string>
#include <string_view>

#include "common/model/model.h"

namespace proftools {

// Decodes a `KEY=VALUE` label token. Returns false with *error when malformed.
bool DecodeLabel(std::string_view token, Label* out, std::string* error);

// Appends a label token in canonical spelling.
void AppendLabel(std::string* out, const Label& label);

}  // namespace proftools

#endif  // PROFTOOLS_COMMON_MODEL_LABEL_SYNTAX_H_
