// How the figure screens lay out their numbers: a row of cards, each a figure with a short
// note under it, and a table's totals row (the label left, the figures right).
import type { ReactNode } from 'react';
import { Card, Col, Row, Table, Typography } from 'antd';

/** Six cards a row on a wide screen: each card's figure (a Statistic) and its note, one short line under it. */
export function FigureCards<C extends { title: string; note: ReactNode }>({ cards, figure }: { cards: C[]; figure: (card: C) => ReactNode }) {
  return (
    <Row gutter={[16, 16]}>
      {cards.map((c) => (
        <Col key={c.title} xs={12} md={8} xl={4}>
          <Card variant="borderless" style={{ height: '100%' }}>
            {figure(c)}
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {c.note}
            </Typography.Text>
          </Card>
        </Col>
      ))}
    </Row>
  );
}

/** A table's totals row: the first cell (its label) left, the figures right. */
export function TotalsRow({ cells }: { cells: ReactNode[] }) {
  return (
    <Table.Summary>
      <Table.Summary.Row>
        {cells.map((c, i) => (
          <Table.Summary.Cell key={i} index={i} align={i === 0 ? 'left' : 'right'}>
            {c}
          </Table.Summary.Cell>
        ))}
      </Table.Summary.Row>
    </Table.Summary>
  );
}
