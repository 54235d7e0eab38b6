; Hand-written LLVM IR kernels (no target cpu here: the build passes
; -mcpu=<arch> and -mcode-object-version=<n>). They use intrinsics directly:
; workitem ids, an explicit s_waitcnt-free loop, llvm.amdgcn.readfirstlane,
; and a uniform loop whose trip count comes from a kernel argument.

target triple = "amdgcn-amd-amdhsa"

; out[i] = in[i] * k + i, for i < n
define amdgpu_kernel void @ir_scale_add(ptr addrspace(1) noalias %in,
                                        ptr addrspace(1) noalias %out,
                                        i32 %n, i32 %k) {
entry:
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %gid = call i32 @llvm.amdgcn.workgroup.id.x()
  %base = shl i32 %gid, 8                        ; 256 threads per group
  %i = add i32 %base, %tid
  %inb = icmp slt i32 %i, %n
  br i1 %inb, label %body, label %exit
body:
  %idx = sext i32 %i to i64
  %pin = getelementptr inbounds i32, ptr addrspace(1) %in, i64 %idx
  %v = load i32, ptr addrspace(1) %pin, align 4
  %m = mul i32 %v, %k
  %r = add i32 %m, %i
  %pout = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %idx
  store i32 %r, ptr addrspace(1) %pout, align 4
  br label %exit
exit:
  ret void
}

; out[i] = sum_{j < iters} (in[i] ^ j) + readfirstlane(in[i]); uniform loop
define amdgpu_kernel void @ir_uniform_loop(ptr addrspace(1) noalias %in,
                                           ptr addrspace(1) noalias %out,
                                           i32 %iters) "amdgpu-flat-work-group-size"="1,256" {
entry:
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %gid = call i32 @llvm.amdgcn.workgroup.id.x()
  %base = shl i32 %gid, 8
  %i = add i32 %base, %tid
  %idx = zext i32 %i to i64
  %pin = getelementptr inbounds i32, ptr addrspace(1) %in, i64 %idx
  %v = load i32, ptr addrspace(1) %pin, align 4
  %first = call i32 @llvm.amdgcn.readfirstlane.i32(i32 %v)
  %skip = icmp sle i32 %iters, 0
  br i1 %skip, label %done, label %loop
loop:
  %j = phi i32 [ 0, %entry ], [ %jn, %loop ]
  %acc = phi i32 [ 0, %entry ], [ %accn, %loop ]
  %x = xor i32 %v, %j
  %accn = add i32 %acc, %x
  %jn = add i32 %j, 1
  %cont = icmp slt i32 %jn, %iters
  br i1 %cont, label %loop, label %done
done:
  %s = phi i32 [ 0, %entry ], [ %accn, %loop ]
  %res = add i32 %s, %first
  %pout = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %idx
  store i32 %res, ptr addrspace(1) %pout, align 4
  ret void
}

declare i32 @llvm.amdgcn.workitem.id.x()
declare i32 @llvm.amdgcn.workgroup.id.x()
declare i32 @llvm.amdgcn.readfirstlane.i32(i32)
