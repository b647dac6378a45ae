/** Passwords of ten or more characters that top public breach lists; refused whatever their length. */
export const COMMON_PASSWORDS = new Set([
  '1234567890', '12345678910', '123456789012', '0987654321', '1111111111', '0000000000', '1234554321',
  'qwertyuiop', 'qwerty12345', 'qwerty123456', 'qwertyuiop123', '1q2w3e4r5t', '1qaz2wsx3edc', 'zaq12wsxcde3',
  'password12', 'password123', 'password1234', 'password12345', 'passw0rd123', 'p@ssw0rd123', 'passwordpassword',
  'iloveyou123', 'abcdefghij', 'abc1234567', 'abcd123456', 'asdfghjkl1', 'asdfghjkl;', 'letmein123',
  'welcome123', 'welcome1234', 'administrator', 'admin12345', 'admin123456', 'changeme123', 'football123',
  'baseball123', 'basketball', 'superman123', 'sunshine123', 'princess123', 'trustno1234', 'starwars123',
  'dragon12345', 'monkey12345', 'michael123', 'jennifer123', 'computer123', 'whatever123', 'internet123',
  'samsung123', 'minecraft123', 'pokemon1234', 'liverpool123', 'chelsea1234', 'q1w2e3r4t5', 'q1w2e3r4t5y6',
  'azertyuiop', '123qweasdzxc', 'qweasdzxc123', '1234qwerasdf', 'asdf123456', 'zxcvbnm123', 'zxcvbnm1234',
  'aaaaaaaaaa', 'a1b2c3d4e5', 'a123456789', 'abc123abc123', 'secret1234', 'mypassword1', 'mypassword123',
]);
