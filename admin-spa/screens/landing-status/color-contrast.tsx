// Below the landing's colour fields: the contrast of each text/background pair the public page
// draws with them, and a warning for each pair under WCAG AA's 4.5:1.
import { Alert, Flex, Tag, Typography } from 'antd';
import { CheckOutlined, WarningOutlined } from '@ant-design/icons';
import { contrastWarning, formatRatio, landingColorPairs, type LandingColors } from './color-pairs.ts';

export function ColorContrast({ colors }: { colors: LandingColors }) {
  const pairs = landingColorPairs(colors);
  const warnings = pairs.map(contrastWarning).filter((w): w is string => !!w);
  return (
    <section aria-label="색상 명암비" style={{ marginBottom: 16 }}>
      <Flex wrap gap={8} style={{ marginBottom: warnings.length ? 8 : 0 }}>
        {pairs.map((p) => (
          <Tag key={p.key} color={p.ok ? 'default' : 'warning'} icon={p.ok ? <CheckOutlined /> : <WarningOutlined />} style={{ marginInlineEnd: 0, paddingBlock: 2 }}>
            {/* The pair itself, as the page draws it: a sample, not content (hidden from screen readers). */}
            <span aria-hidden style={{ display: 'inline-block', padding: '0 6px', marginInlineEnd: 6, borderRadius: 4, border: '1px solid #d9d9d9', color: p.foreground, background: p.background, fontWeight: 600 }}>
              가
            </span>
            {p.label} {p.ratio === null ? '-' : formatRatio(p.ratio)}
          </Tag>
        ))}
      </Flex>
      {warnings.length > 0 && (
        <Alert
          type="warning"
          showIcon
          title={warnings.length === 1 ? warnings[0] : <ul style={{ margin: 0, paddingInlineStart: 18 }}>{warnings.map((w) => <li key={w}>{w}</li>)}</ul>}
          description="명암비가 낮으면 휴대폰 화면이나 밝은 곳에서 글자를 읽기 어렵습니다."
        />
      )}
      <Typography.Text type="secondary" style={{ fontSize: 12, display: 'block', marginTop: 4 }}>
        명암비는 WCAG 2 기준이며, 본문 글자는 4.5:1 이상이어야 누구나 읽기 쉽습니다.
      </Typography.Text>
    </section>
  );
}
