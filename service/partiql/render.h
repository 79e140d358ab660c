// Conditions and updates written back as DynamoDB expression text, every
// name and value a substitution (#n0, :v0), so a PartiQL write can run as the
// PutItem/UpdateItem/DeleteItem or TransactWriteItems request it amounts to:
// one write path and one set of checks for both dialects.
#pragma once

#include <map>
#include <string>

#include "service/expr/ast.h"
#include "service/expr/types.h"

namespace pogi::partiql {

class Renderer {
 public:
  std::string Condition(const expr::Condition& c);
  std::string Update(const expr::Update& u);
  std::string Path(const expr::Path& p);

  // The substitutions used so far.
  const expr::NameMap& names() const { return names_; }
  const expr::AttributeMap& values() const { return values_; }

 private:
  std::string Operand(const expr::Operand& o);
  std::string Value(const expr::AttributeValue& v);

  std::map<std::string, std::string> name_refs_;  // attribute name -> #nK
  expr::NameMap names_;
  expr::AttributeMap values_;
};

}  // namespace pogi::partiql
