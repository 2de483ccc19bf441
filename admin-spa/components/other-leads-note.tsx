// The note beside ad figures while some leads did not come from an ad: the server leaves them
// out of CTR, CVR, CPL, CPA and margin (adLead in server/db/valid-leads.ts); the screen says so.
import type { ReactNode } from 'react';
import { Alert, Typography } from 'antd';
import { InfoCircleOutlined } from '@ant-design/icons';
import { otherLeadsNote } from '@contracts/money.ts';

export function OtherLeadsNote({ count, extra, banner = false }: { count: number; extra?: ReactNode; banner?: boolean }) {
  if (count <= 0) return null;
  if (banner) return <Alert type="info" showIcon title={otherLeadsNote(count)} {...(extra ? { description: extra } : {})} data-testid="other-leads-note" />;
  return (
    <Typography.Text type="secondary" style={{ fontSize: 13, display: 'block' }} data-testid="other-leads-note">
      <InfoCircleOutlined /> {otherLeadsNote(count)} {extra}
    </Typography.Text>
  );
}
