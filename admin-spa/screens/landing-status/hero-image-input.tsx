// The hero image: upload (image types only, size-limited; the server stores its dimensions),
// alternative text, remove. A form control: value is the content's ImageRef or null.
import { useState } from 'react';
import { App, Button, Input, Space, Typography, Upload } from 'antd';
import { DeleteOutlined, UploadOutlined } from '@ant-design/icons';
import { IMAGE_MIME_TYPES, IMAGE_UPLOAD_MAX_BYTES, landingsApi, type ImageRef } from '@contracts/landings.ts';
import { call } from '@/lib/api.ts';

const MAX_MB = IMAGE_UPLOAD_MAX_BYTES / 1024 / 1024;

export function HeroImageInput({ shopId, value, onChange, disabled }: { shopId: number; value?: ImageRef | null; onChange?: (v: ImageRef | null) => void; disabled?: boolean }) {
  const { message } = App.useApp();
  const [busy, setBusy] = useState(false);

  async function upload(file: File) {
    if (!(IMAGE_MIME_TYPES as readonly string[]).includes(file.type)) {
      message.error('PNG, JPEG, WebP, GIF 이미지만 올릴 수 있습니다.');
      return;
    }
    if (file.size > IMAGE_UPLOAD_MAX_BYTES) {
      message.error(`이미지는 ${MAX_MB}MB 이하만 올릴 수 있습니다.`);
      return;
    }
    setBusy(true);
    try {
      const body = new FormData();
      body.append('file', file);
      const res = await call(landingsApi.upload, { params: { shopId }, body });
      onChange?.({ url: res.url, width: res.width, height: res.height, alt: value?.alt ?? '' });
      message.success('이미지를 올렸습니다.');
    } catch (err) {
      message.error((err as Error).message);
    } finally {
      setBusy(false);
    }
  }

  return (
    <Space orientation="vertical" style={{ width: '100%' }}>
      {value && (
        <div style={{ display: 'flex', gap: 12, alignItems: 'flex-start' }}>
          <img
            src={value.url}
            alt={value.alt || '대표 이미지'}
            style={{ width: 160, height: 90, objectFit: 'cover', borderRadius: 6, border: '1px solid #f0f0f0', background: '#fafafa' }}
          />
          <Space orientation="vertical" size={4} style={{ flex: 1, minWidth: 0 }}>
            <Typography.Text type="secondary">
              {value.width}×{value.height}px
            </Typography.Text>
            <Input
              aria-label="대체 텍스트"
              placeholder="대체 텍스트 (이미지를 설명하는 문장)"
              maxLength={100}
              value={value.alt}
              disabled={disabled}
              onChange={(e) => onChange?.({ ...value, alt: e.target.value })}
            />
          </Space>
        </div>
      )}
      <Space>
        <Upload
          accept={IMAGE_MIME_TYPES.join(',')}
          showUploadList={false}
          disabled={disabled || busy}
          beforeUpload={(file) => {
            void upload(file);
            return false;
          }}
        >
          <Button icon={<UploadOutlined />} loading={busy} disabled={disabled}>
            {value ? '이미지 바꾸기' : '이미지 올리기'}
          </Button>
        </Upload>
        {value && (
          <Button icon={<DeleteOutlined />} disabled={disabled} onClick={() => onChange?.(null)}>
            삭제
          </Button>
        )}
      </Space>
    </Space>
  );
}
