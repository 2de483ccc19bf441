// The live preview beside the editor: the unsaved input, rendered by the server exactly as
// visitors get it (without scripts and without submitting), in a sandboxed frame.
import { useEffect, useState } from 'react';
import { Alert, Segmented, Space, Spin, Typography } from 'antd';
import { MobileOutlined, DesktopOutlined } from '@ant-design/icons';
import { landingsApi } from '@contracts/landings.ts';
import { call } from '@/lib/api.ts';
import { parsePreviewInput, type EditorValues } from './landing-form.ts';

const DEBOUNCE_MS = 600;

export function LandingPreview({ shopId, values }: { shopId: number; values: EditorValues | null }) {
  const [device, setDevice] = useState<'mobile' | 'desktop'>('mobile');
  const [html, setHtml] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);

  useEffect(() => {
    if (!values) return;
    const parsed = parsePreviewInput(values);
    const controller = new AbortController();
    const timer = setTimeout(async () => {
      if (!parsed.success) {
        setProblem(parsed.error.issues[0]?.message ?? '입력값을 확인하세요.');
        return;
      }
      setLoading(true);
      try {
        setHtml(await call(landingsApi.previewInput, { params: { shopId }, body: parsed.data }, { signal: controller.signal }));
        setProblem(null);
      } catch (err) {
        if (!controller.signal.aborted) setProblem((err as Error).message);
      } finally {
        if (!controller.signal.aborted) setLoading(false);
      }
    }, DEBOUNCE_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [shopId, values]);

  const width = device === 'mobile' ? 390 : '100%';
  return (
    <Space orientation="vertical" size={8} style={{ width: '100%' }}>
      <div style={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: 8 }}>
        <Space size={8}>
          <Typography.Text strong>미리보기</Typography.Text>
          {loading && <Spin size="small" />}
        </Space>
        <Segmented
          size="small"
          value={device}
          onChange={(v) => setDevice(v as 'mobile' | 'desktop')}
          options={[
            { value: 'mobile', label: '모바일', icon: <MobileOutlined /> },
            { value: 'desktop', label: 'PC', icon: <DesktopOutlined /> },
          ]}
        />
      </div>
      {problem && <Alert type="warning" showIcon title={`미리보기를 갱신하지 못했습니다: ${problem}`} />}
      <div style={{ display: 'flex', justifyContent: 'center', background: '#f0f2f5', borderRadius: 8, padding: device === 'mobile' ? 12 : 0 }}>
        {html ? (
          <iframe
            title="랜딩 미리보기"
            // No allow-scripts: nothing in the preview runs; same origin only so uploaded images load.
            sandbox="allow-same-origin"
            srcDoc={html}
            style={{ width, maxWidth: '100%', height: 'calc(100vh - 220px)', minHeight: 480, border: '1px solid #d9d9d9', borderRadius: 6, background: '#fff' }}
          />
        ) : (
          <div style={{ height: 480, display: 'flex', alignItems: 'center', justifyContent: 'center', color: '#8c8c8c', textAlign: 'center', padding: 24 }}>
            {problem ? '입력값을 고치면 미리보기가 나타납니다.' : <Spin />}
          </div>
        )}
      </div>
    </Space>
  );
}
