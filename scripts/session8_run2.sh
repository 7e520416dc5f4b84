export PYTHONPATH=$PWD/src:$PWD/tests:$PWD/scripts PYTHONUNBUFFERED=1
python3 scripts/splitk_fault.py 2>&1 | tail -70
echo "== memcheck 32,16,512,128,1"
timeout 240 compute-sanitizer --tool memcheck --print-limit 5 --kernel-name kns=attn_fwd python3 scripts/splitk_fault.py child 32,16,512,128,1 2>&1 | head -60
