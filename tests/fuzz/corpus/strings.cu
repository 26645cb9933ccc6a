const char* s = "k<<<1,1>>>()";
const char* e = "escaped \" quote __shared__ int x; \\";
const char* t = "tab\t and \\\\ <<<";
char q = '"';
char b = '\\';
char a = '\'';
int mc = 'ab';
const char* concat = "a" "b" L"wide" u8"utf8" u"16" U"32";
void f() { printf("%d<<<%d>>>\n", 1, 2); k<<<1, 1>>>("a>>>b", ')'); }
