// A multipart call with upload progress: fetch() cannot report what it has sent, so the CSV
// import's upload goes through XMLHttpRequest, answering and failing as call() does.
import { ApiError, urlOf } from '@/lib/api.ts';
import type { CallInput, Endpoint, ResponseOf } from '@contracts/endpoint.ts';

export function uploadWithProgress<E extends Endpoint>(e: E, input: CallInput<E>, onProgress: (sentShare: number) => void): Promise<ResponseOf<E>> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open(e.method, urlOf(e, input));
    xhr.withCredentials = true;
    xhr.responseType = 'json';
    xhr.upload.onprogress = (ev) => {
      if (ev.lengthComputable && ev.total) onProgress(ev.loaded / ev.total);
    };
    xhr.upload.onload = () => onProgress(1);
    xhr.onload = () => {
      const data = xhr.response as { error?: { code?: string; message?: string; fields?: Record<string, string> } } | null;
      if (xhr.status >= 200 && xhr.status < 300) return resolve(data as ResponseOf<E>);
      // An ended session: the next ordinary call takes the person to the login screen.
      const err = data?.error;
      reject(new ApiError(xhr.status, err?.code ?? `HTTP_${xhr.status}`, err?.message ?? '요청을 처리하지 못했습니다.', err?.fields));
    };
    xhr.onerror = () => reject(new ApiError(0, 'NETWORK', '서버에 연결할 수 없습니다. 네트워크를 확인하세요.'));
    xhr.send(input.body as FormData);
  });
}
