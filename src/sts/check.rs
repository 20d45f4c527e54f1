//! Type checking of expressions (the sort-safety of terms, van den Bos Sec. 4.2.2): names are
//! resolved to location variables, the switch's gate parameters or enumeration constants, and
//! every operator is checked against the sorts of its operands. Guards must be Boolean and an
//! assignment must have its variable's sort. Errors carry the offset of the offending
//! sub-expression.

use super::expr::{BinOp, Expr, ExprKind, Term, UnOp, Value};
use super::parse::ExprError;
use super::types::{Enumeration, Parameter, Sort, Variable};
use crate::format::position::excerpt;

/// The names an expression can use.
pub struct Scope<'a> {
    /// The enumerations of the model.
    pub enums: &'a [Enumeration],
    /// The location variables.
    pub variables: &'a [Variable],
    /// The parameters of the switch's gate (empty for initial values).
    pub parameters: &'a [Parameter],
}

/// How a sort is named in messages.
pub fn sort_name(sort: Sort, enums: &[Enumeration]) -> String {
    match sort {
        Sort::Int => "an integer".into(),
        Sort::Bool => "a Boolean".into(),
        Sort::Enum(e) => format!("a value of `{}`", enums[e].name),
    }
}

impl Scope<'_> {
    fn resolve(&self, name: &str) -> Option<(Term, Sort)> {
        if let Some(i) = self.parameters.iter().position(|p| p.name == name) {
            return Some((Term::Param(i), self.parameters[i].ty.sort()));
        }
        if let Some(i) = self.variables.iter().position(|v| v.name == name) {
            return Some((Term::Var(i), self.variables[i].ty.sort()));
        }
        self.enum_constant(name)
            .map(|v| (Term::Const(v), value_sort(v)))
    }

    /// The enumeration constant called `name`.
    pub fn enum_constant(&self, name: &str) -> Option<Value> {
        self.enums.iter().enumerate().find_map(|(e, en)| {
            en.values
                .iter()
                .position(|c| c == name)
                .map(|index| Value::Enum {
                    enumeration: e,
                    index,
                })
        })
    }

    /// Resolves and sorts an expression, requiring sort `want`.
    pub fn check(&self, e: &Expr, want: Sort) -> Result<Term, ExprError> {
        let (t, sort) = self.infer(e)?;
        if sort != want {
            return Err(ExprError::new(
                e.span.start,
                format!(
                    "`{}`, {}",
                    excerpt(&e.to_string()),
                    sort_name(sort, self.enums)
                ),
                sort_name(want, self.enums),
            ));
        }
        Ok(t)
    }

    fn infer(&self, e: &Expr) -> Result<(Term, Sort), ExprError> {
        Ok(match &e.kind {
            ExprKind::Int(n) => (Term::Const(Value::Int(*n)), Sort::Int),
            ExprKind::Bool(b) => (Term::Const(Value::Bool(*b)), Sort::Bool),
            ExprKind::Name(n) => self.resolve(n).ok_or_else(|| {
                let mut known: Vec<&str> =
                    self.parameters.iter().map(|p| p.name.as_str()).collect();
                known.extend(self.variables.iter().map(|v| v.name.as_str()));
                let expected = if known.is_empty() {
                    "a constant or an enumeration value".to_owned()
                } else {
                    format!("one of {}", excerpt(&known.join(", ")))
                };
                ExprError::new(
                    e.span.start,
                    format!("unknown name `{}`", excerpt(n)),
                    expected,
                )
            })?,
            ExprKind::Unary(op, a) => {
                let sort = match op {
                    UnOp::Not => Sort::Bool,
                    UnOp::Neg => Sort::Int,
                };
                (Term::Unary(*op, Box::new(self.check(a, sort)?)), sort)
            }
            ExprKind::Binary(op, a, b) => match op {
                BinOp::Or | BinOp::And => (
                    Term::Binary(
                        *op,
                        Box::new(self.check(a, Sort::Bool)?),
                        Box::new(self.check(b, Sort::Bool)?),
                    ),
                    Sort::Bool,
                ),
                BinOp::Eq | BinOp::Ne => {
                    let (x, sort) = self.infer(a)?;
                    let y = self.check(b, sort)?;
                    (Term::Binary(*op, Box::new(x), Box::new(y)), Sort::Bool)
                }
                _ => {
                    let result = if op.is_comparison() {
                        Sort::Bool
                    } else {
                        Sort::Int
                    };
                    (
                        Term::Binary(
                            *op,
                            Box::new(self.check(a, Sort::Int)?),
                            Box::new(self.check(b, Sort::Int)?),
                        ),
                        result,
                    )
                }
            },
        })
    }
}

/// The sort of a value.
pub fn value_sort(v: Value) -> Sort {
    match v {
        Value::Int(_) => Sort::Int,
        Value::Bool(_) => Sort::Bool,
        Value::Enum { enumeration, .. } => Sort::Enum(enumeration),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sts::parse::parse_expr;
    use crate::sts::types::Type;

    #[test]
    fn sorts_are_checked_with_positions() {
        let enums = vec![Enumeration {
            name: "drink".into(),
            values: vec!["tea".into(), "coffee".into()],
        }];
        let variables = vec![Variable {
            name: "x".into(),
            ty: Type::Int {
                min: None,
                max: None,
            },
            initial: Value::Int(0),
        }];
        let parameters = vec![Parameter {
            name: "d".into(),
            ty: Type::Enum(0),
        }];
        let scope = Scope {
            enums: &enums,
            variables: &variables,
            parameters: &parameters,
        };
        let ok = |t: &str| scope.check(&parse_expr(t).unwrap(), Sort::Bool);
        assert!(ok("d == tea and x + 1 > 2").is_ok());
        let e = ok("x + d > 1").unwrap_err();
        assert_eq!(e.offset, 4);
        assert!(e.found.contains("`drink`"), "{e}");
        let e = ok("d == 3").unwrap_err();
        assert_eq!(e.offset, 5);
        let e = ok("x").unwrap_err();
        assert_eq!(e.expected, "a Boolean");
        let e = ok("y > 1").unwrap_err();
        assert!(e.found.contains("unknown name `y`"));
    }
}
