#!/usr/bin/env bash
# test_lib.sh PREFIX WORKDIR [test|example] — checks an installation of libarnswitch
# (make install PREFIX=...): installed files, exported symbols (the public API and
# nothing else), the example program built through pkg-config against the static
# and the shared library, the Python binding on the installed library (same output
# as the C example, bit for bit) and its tests. Ends with "lib: N passed, N failed".
set -u
prefix=$1 work=$2 mode=${3:-test}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
mkdir -p "$work"
export PKG_CONFIG_PATH="$prefix/lib/pkgconfig"
pass=0 fail=0
ok() { echo "PASS $1"; pass=$((pass + 1)); }
ko() { echo "FAIL $1"; fail=$((fail + 1)); }
check() { local name=$1; shift; if "$@" > "$work/check.log" 2>&1; then ok "$name"; else ko "$name"; cat "$work/check.log"; fi; }

cflags=$(pkg-config --cflags arnswitch) || { echo "FAIL pkg-config finds no arnswitch in $PKG_CONFIG_PATH"; echo "lib: 0 passed, 1 failed"; exit 1; }
# static: the whole program linked statically (-static), libarnswitch.a from pkg-config --static
build_static() { cc -std=c11 -Wall -Wextra -Werror $cflags "$here/example.c" -o "$work/example_static" \
  -static $(pkg-config --static --libs arnswitch); }
build_shared() { cc -std=c11 -Wall -Wextra -Werror $cflags "$here/example.c" -o "$work/example_shared" \
  $(pkg-config --libs arnswitch) -Wl,-rpath,"$prefix/lib"; }

if [ "$mode" = example ]; then
  build_shared && "$work/example_shared" && \
  ARNSWITCH_LIB="$prefix/lib/libarnswitch.so" python3 "$root/sw/arnswitch_example.py" | tail -3
  exit $?
fi

# ---- installed tree ----------------------------------------------------------------
check "pkg-config version is the library's" test "$(pkg-config --modversion arnswitch)" = 4.0.0
check "public headers installed, internal ones not" \
  test "$(cd "$prefix/include/arnswitch" && ls | tr '\n' ' ')" = "asw_regmap.h asw_switch.h asw_table.h "
check "libraries installed (a, so, soname link)" test -f "$prefix/lib/libarnswitch.a" -a \
  -f "$prefix/lib/libarnswitch.so.4.0.0" -a -L "$prefix/lib/libarnswitch.so.4" -a -L "$prefix/lib/libarnswitch.so"
check "bin/asw and bin/asw-board (the boards' host tool) installed and run" bash -c \
  "'$prefix/bin/asw' switch --help | grep -q '^usage: asw switch' && '$prefix/bin/asw-board' --help | grep -q '^usage: asw-board'"
check "soname is libarnswitch.so.4" bash -c "readelf -d '$prefix/lib/libarnswitch.so' | grep -q 'SONAME.*libarnswitch.so.4\]'"

# ---- exported symbols == the functions the public headers declare -------------------
api=$work/api.syms
sed -nE 's/^(const )?[a-z_0-9]+ \**(asw_[a-z0-9_]+)\(.*/\2/p' "$prefix"/include/arnswitch/*.h | sort > "$api"
exports_of() { nm "$@" --defined-only 2>/dev/null | awk '$2 ~ /^[TDBRVW]$/ {sub(/@.*/, "", $3); print $3}' | sort -u; }
check "the API has its functions (asw_switch_step, asw_table_load)" \
  bash -c "grep -qx asw_switch_step '$api' && grep -qx asw_table_load '$api' && [ \$(wc -l < '$api') -ge 10 ]"
check "shared library exports exactly the API" diff <(exports_of -D "$prefix/lib/libarnswitch.so") "$api"
check "static library exports exactly the API" diff <(exports_of -g "$prefix/lib/libarnswitch.a") "$api"
# planted: the objects before localisation export internal names; the check must see it
if diff <(exports_of -g "$root/build/lib/arnswitch_all.o") "$api" > /dev/null 2>&1; then
  ko "symbol check notices internal symbols (planted: unfiltered objects)"
else ok "symbol check notices internal symbols (planted: unfiltered objects)"; fi

# ---- the example through pkg-config, static and shared ------------------------------
check "example builds against the static library" build_static
check "static example has no libarnswitch dependency" \
  bash -c "! readelf -d '$work/example_static' 2>/dev/null | grep -q libarnswitch"
check "example builds against the shared library" build_shared
check "shared example needs libarnswitch.so.4" \
  bash -c "readelf -d '$work/example_shared' | grep -q 'NEEDED.*libarnswitch.so.4'"
"$work/example_static" > "$work/static.out" 2>&1; rs=$?
"$work/example_shared" > "$work/shared.out" 2>&1; rd=$?
check "static example passes (no flit lost or misrouted, counters agree)" test $rs -eq 0
check "shared example passes" test $rd -eq 0
check "static and shared examples print the same" diff "$work/static.out" "$work/shared.out"
cat "$work/shared.out" | sed 's/^/  /'
# C++ users: the headers compile as C++ and link (extern "C")
printf '#include <asw_switch.h>\n#include <asw_table.h>\nint main(){asw_config c; asw_config_default(&c); char e[64];\n asw_switch *s = asw_switch_new(&c, e, sizeof e); int r = asw_table_apply(s, "fwd 0 1\\n", "t", e, sizeof e);\n asw_switch_free(s); return r;}\n' > "$work/cxx.cpp"
check "headers usable from C++ (shared library)" bash -c "c++ -std=c++17 -Wall -Wextra -Werror $cflags '$work/cxx.cpp' -o '$work/cxx' $(pkg-config --libs arnswitch) -Wl,-rpath,'$prefix/lib' && '$work/cxx'"

# ---- Python binding on the installed library ----------------------------------------
export ARNSWITCH_LIB="$prefix/lib/libarnswitch.so" ARNSWITCH_ASW="$prefix/bin/asw"
PYTHONPATH="$prefix/share/arnswitch/python" python3 -c 'import arnswitch, sys; sys.exit(0 if arnswitch.LIBRARY_PATH == sys.argv[1] else 1)' "$ARNSWITCH_LIB" \
  && ok "installed Python package loads the installed library" || ko "installed Python package loads the installed library"
python3 "$root/sw/arnswitch_example.py" > "$work/python.out" 2>&1
check "Python example prints what the C example prints (output hash of every flit)" \
  diff "$work/shared.out" "$work/python.out"
# planted: a different stimulus length must change the hash (the comparison can fail)
python3 "$root/sw/arnswitch_example.py" 2999 > "$work/python_planted.out" 2>&1
if diff -q "$work/shared.out" "$work/python_planted.out" > /dev/null; then
  ko "hash comparison notices a different run (planted)"; else ok "hash comparison notices a different run (planted)"; fi
python3 "$root/sw/test_arnswitch.py" > "$work/pytest.out" 2>&1; rp=$?
grep -v '^PASS' "$work/pytest.out"
p=$(sed -n 's/^arnswitch-py: \([0-9]*\) passed, \([0-9]*\) failed/\1 \2/p' "$work/pytest.out")
set -- ${p:-0 1}
pass=$((pass + $1)); fail=$((fail + $2))
[ $rp -eq 0 ] || [ "$2" -gt 0 ] || fail=$((fail + 1))
echo "lib: $pass passed, $fail failed"
[ $fail -eq 0 ]
