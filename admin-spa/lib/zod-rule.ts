// One schema, three uses: the zod schema that validates the API also drives antd form rules.
import type { Rule } from 'antd/es/form/index.js';
import type { z } from 'zod';

type AnySchema = z.ZodType;

/** The object shape behind a schema, looking through .transform() / .pipe() wrappers. */
function shapeOf(schema: AnySchema): Record<string, AnySchema> | null {
  const s = schema as unknown as { shape?: Record<string, AnySchema>; in?: AnySchema; def?: { in?: AnySchema; innerType?: AnySchema } };
  if (s.shape) return s.shape;
  const inner = s.in ?? s.def?.in ?? s.def?.innerType;
  return inner ? shapeOf(inner) : null;
}

/** An antd rule validating one field with that field's zod schema (empty strings count as empty). */
export function zodRule(schema: AnySchema, field: string): Rule {
  const fieldSchema = shapeOf(schema)?.[field];
  return {
    validator: async (_rule, value) => {
      if (!fieldSchema) return;
      const result = await fieldSchema.safeParseAsync(value === undefined ? undefined : value);
      if (!result.success) throw new Error(result.error.issues[0]?.message ?? '값을 확인하세요.');
    },
  };
}

/** Server field errors ({ field: message }) in antd's setFields form. */
export function fieldErrors(fields: Record<string, string> | undefined) {
  // List indexes ("formFields.0.key") become numbers, as antd's Form.List names them.
  return Object.entries(fields ?? {}).map(([name, message]) => ({
    name: name.split('.').map((part) => (/^\d+$/.test(part) ? Number(part) : part)),
    errors: [message],
  }));
}
