// A form item checked by its field of the contract's schema: the same zod schema that the API
// validates with gives the item its inline rule, so a field's name is written once.
//   const Item = schemaItem(shopDetails);
//   <Item half name="phone" label="대표 전화"><Input /></Item>
import type { ReactElement } from 'react';
import { Col, Form, type FormItemProps } from 'antd';
import type { z } from 'zod';
import { zodRule } from '@/lib/zod-rule.ts';

type Key<S extends z.ZodType> = keyof z.input<S> & string;

export type SchemaItemProps<S extends z.ZodType> = Omit<FormItemProps, 'name'> & {
  /** The schema's field, or [row, field] inside a Form.List of rows the schema checks. */
  name: Key<S> | [number, Key<S>];
  /** Half the row from md up (a full row on a phone). */
  half?: boolean;
};

/** The Form.Item of `schema`'s fields: its rule is the field's schema, then any `rules` given. */
export function schemaItem<S extends z.ZodType>(schema: S): (props: SchemaItemProps<S>) => ReactElement {
  return function SchemaItem({ name, rules = [], half, ...props }) {
    const field = Array.isArray(name) ? name[1] : name;
    const item = <Form.Item name={name} rules={[zodRule(schema, field), ...rules]} {...props} />;
    return half ? <Col xs={24} md={12}>{item}</Col> : item;
  };
}
