// Back-office login. The first screen anyone loads, so it is built without antd to stay
// small (see `npm run bench`); its styles follow the house antd theme token for token.
import { useEffect, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import { sessionApi } from '@contracts/session.ts';
import { ApiError, call } from '@/lib/api.ts';
import { useAuth } from '@/lib/auth.tsx';
import './login.css';

type Field = 'loginId' | 'password';
// Mirrors contracts/auth.ts loginBody (both fields required); the server applies the schema itself.
const REQUIRED: Record<Field, string> = { loginId: '아이디를 입력하세요.', password: '비밀번호를 입력하세요.' };

/** Where a session ended (`?next=`, set on a 401): a path of this app, or nothing. */
function nextPath(): string | null {
  const next = new URLSearchParams(window.location.search).get('next');
  return next && next.startsWith('/') && !next.startsWith('//') && !next.startsWith('/bclog') ? next : null;
}

export default function LoginScreen() {
  const { account, signIn } = useAuth();
  const navigate = useNavigate();
  const [values, setValues] = useState<Record<Field, string>>({ loginId: '', password: '' });
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [error, setError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);

  useEffect(() => {
    document.title = '로그인 · Leadroom';
  }, []);

  function validate(field: Field, value: string) {
    setErrors((e) => ({ ...e, [field]: value.trim() ? undefined : REQUIRED[field] }));
    return !!value.trim();
  }

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    const ok = [validate('loginId', values.loginId), validate('password', values.password)].every(Boolean);
    if (!ok) return;
    setSubmitting(true);
    setError(null);
    try {
      const res = await call(sessionApi.login, { body: { loginId: values.loginId.trim(), password: values.password } });
      signIn(res.account);
      navigate(nextPath() ?? res.account.home, { replace: true });
    } catch (err) {
      if (err instanceof ApiError && err.fields) setErrors(err.fields as Partial<Record<Field, string>>);
      setError(err instanceof ApiError ? err.message : '로그인하지 못했습니다.');
    } finally {
      setSubmitting(false);
    }
  }

  const input = (field: Field, label: string, type: string, autoComplete: string) => (
    <div className="lr-item">
      <label htmlFor={field}>{label}</label>
      <input
        id={field}
        name={field}
        type={type}
        autoComplete={autoComplete}
        autoFocus={field === 'loginId'}
        aria-invalid={!!errors[field]}
        aria-describedby={errors[field] ? `${field}-error` : undefined}
        className={errors[field] ? 'lr-input lr-input-error' : 'lr-input'}
        value={values[field]}
        onChange={(e) => {
          setValues((v) => ({ ...v, [field]: e.target.value }));
          if (errors[field]) validate(field, e.target.value);
        }}
        onBlur={(e) => validate(field, e.target.value)}
      />
      {errors[field] && (
        <div id={`${field}-error`} className="lr-explain" role="alert">
          {errors[field]}
        </div>
      )}
    </div>
  );

  return (
    <main className="lr-login">
      <form className="lr-card" onSubmit={onSubmit} noValidate>
        <h1>Leadroom</h1>
        <p className="lr-sub">DB 마케팅 관리 시스템에 로그인하세요.</p>
        {account && (
          <p className="lr-info">
            {account.name}님으로 로그인되어 있습니다. <a href={account.home}>계속하기</a>
          </p>
        )}
        {error && (
          <div className="lr-alert" role="alert">
            {error}
          </div>
        )}
        {input('loginId', '아이디', 'text', 'username')}
        {input('password', '비밀번호', 'password', 'current-password')}
        <button type="submit" className="lr-button" disabled={submitting}>
          {submitting ? '로그인 중…' : '로그인'}
        </button>
      </form>
    </main>
  );
}
