// The one box a file is dropped on or picked from (파일 가져오기, 광고비 가져오기): it hands the
// file over and uploads nothing itself.
import type { ReactNode } from 'react';
import { Upload } from 'antd';
import { InboxOutlined } from '@ant-design/icons';

export function FileDrop({ accept, disabled, onFile, text, hint }: {
  /** The file kinds the picker offers (the server checks the file itself). */
  accept: string;
  disabled?: boolean;
  onFile: (file: File) => void;
  text: ReactNode;
  hint: ReactNode;
}) {
  return (
    <Upload.Dragger
      accept={accept}
      multiple={false}
      showUploadList={false}
      disabled={disabled}
      beforeUpload={(file) => {
        onFile(file);
        return false;
      }}
    >
      <p className="ant-upload-drag-icon">
        <InboxOutlined />
      </p>
      <p className="ant-upload-text">{text}</p>
      <p className="ant-upload-hint">{hint}</p>
    </Upload.Dragger>
  );
}
